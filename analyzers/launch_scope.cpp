#include "analyzers/launch_scope.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include "analyzers/ast_facts.h"
#include "analyzers/specialization.h"

namespace kta::analyzers {
namespace {

using namespace clang;

// A host function's launches and every value assigned to its variables, in source order.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
 public:
  struct Def {
    const VarDecl* var;
    const Expr* value;
  };
  std::vector<const Expr*> launches;
  std::vector<const CallExpr*> host_calls;  // calls of host functions with a body
  std::vector<Def> defs;

  bool VisitStmt(Stmt* s) {
    if (is_kernel_launch(s)) {
      launches.push_back(cast<Expr>(s));
    } else if (const auto* call = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* fn = call->getDirectCallee();
      if (fn && !is_device_function(fn) && fn->hasBody()) host_calls.push_back(call);
    }
    return true;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (v->hasInit()) defs.push_back({v, v->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp())
      if (const VarDecl* v = named_var(op->getLHS())) defs.push_back({v, op->getRHS()});
    return true;
  }
};

// `const kta_call* call`: the launcher's whole argument. Its sizes count (is_launch_abi_size), but
// not the pointer, or `call->num_tensors != 4` would be launch geometry.
bool is_launch_call_pointer(const VarDecl* v) {
  const auto* record = v->getType()->getPointeeCXXRecordDecl();
  return record && record->getIdentifier() && record->getName() == "kta_call";
}

// Adds every variable `s` names to `vars`; true when one was new.
bool add_named_vars(const Stmt* s, llvm::SmallPtrSet<const VarDecl*, 16>& vars) {
  bool added = false;
  any_of_tree(s, [&](const Stmt* x) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(x))
      if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()); v && !is_launch_call_pointer(v))
        added = vars.insert(v).second || added;
    return false;
  });
  return added;
}

// Statements whose child is a whole expression of its own: an expression statement in a block,
// a condition, a return value.
bool holds_full_expressions(const Stmt* s) {
  return isa<CompoundStmt>(s) || isa<IfStmt>(s) || isa<ForStmt>(s) || isa<WhileStmt>(s) ||
         isa<DoStmt>(s) || isa<SwitchStmt>(s) || isa<ReturnStmt>(s) || isa<CaseStmt>(s) ||
         isa<DefaultStmt>(s) || isa<LabelStmt>(s);
}

// Every `<<<>>>` launch of the audited file's own declarations.
class KernelLaunches : public RecursiveASTVisitor<KernelLaunches> {
 public:
  std::map<const FunctionDecl*, std::vector<const Expr*>> by_kernel;
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* call) {
    if (const FunctionDecl* k = call->getDirectCallee()) {
      if (const FunctionDecl* pattern = k->getTemplateInstantiationPattern()) k = pattern;
      by_kernel[k->getCanonicalDecl()].push_back(call);
    }
    return true;
  }
};

}  // namespace

bool LaunchScope::launched_only_specialized(const FunctionDecl* kernel, ASTContext& ast,
                                            FactsCache& facts) {
  if (!by_kernel_) {
    KernelLaunches visit;
    const SourceManager& sm = ast.getSourceManager();
    for (Decl* d : ast.getTranslationUnitDecl()->decls())
      if (d->getLocation().isValid() &&
          sm.isWrittenInMainFile(sm.getExpansionLoc(d->getLocation())))
        visit.TraverseDecl(d);
    by_kernel_ = std::move(visit.by_kernel);
  }
  if (const FunctionDecl* pattern = kernel->getTemplateInstantiationPattern()) kernel = pattern;
  auto it = by_kernel_->find(kernel->getCanonicalDecl());
  if (it == by_kernel_->end() || it->second.empty()) return false;
  for (const Expr* launch : it->second)
    if (!enclosing_specialization(launch, ast, facts)) return false;
  return true;
}

bool is_kernel_launch(const Stmt* s) {
  if (isa<CUDAKernelCallExpr>(s)) return true;
  const auto* call = dyn_cast<CallExpr>(s);
  const FunctionDecl* fn = call ? call->getDirectCallee() : nullptr;
  if (!fn || !fn->getIdentifier()) return false;
  llvm::StringRef n = fn->getName();
  return n == "hipLaunchKernel" || n == "hipLaunchCooperativeKernel" ||
         n == "hipModuleLaunchKernel";
}

bool LaunchScope::contains_launch(const Stmt* s) { return any_of_tree(s, is_kernel_launch); }

const HostLaunches& LaunchScope::host(const FunctionDecl* fn) {
  auto& slot = cache_[fn];
  if (slot) return *slot;
  slot = std::make_unique<HostLaunches>();
  if (!fn->hasBody()) return *slot;
  LaunchCollector collect;
  collect.TraverseStmt(const_cast<Stmt*>(fn->getBody()));
  HostLaunches& h = *slot;
  h.launches = collect.launches;
  // `launch<64>(x, y, n, stream)`: a call of a host function that launches is a launch too.
  for (const CallExpr* call : collect.host_calls) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (const FunctionDecl* pattern = callee->getTemplateInstantiationPattern()) callee = pattern;
    if (callee != fn && !host(callee).launches.empty()) h.launches.push_back(call);
  }
  for (const Expr* launch : h.launches) add_named_vars(launch, h.vars);
  // Back through the assignments: `grid` is in the launch, `blocks` in grid's value, ...
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& def : collect.defs)
      if (h.vars.count(def.var)) grew = add_named_vars(def.value, h.vars) || grew;
  }
  return h;
}

bool LaunchScope::mentions_launch_var(const Stmt* s, const FunctionDecl* fn) {
  const HostLaunches& h = host(fn);
  return any_of_tree(s, [&](const Stmt* x) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(x))
      if (const auto* v = dyn_cast<VarDecl>(ref->getDecl())) return h.vars.count(v) > 0;
    return is_launch_abi_size(x);
  });
}

bool LaunchScope::judged_var(const VarDecl* v, const FunctionDecl* fn) {
  return !fn || is_device_function(fn) || host(fn).vars.count(v) > 0;
}

bool LaunchScope::judged(const Stmt* s, ASTContext& ast) {
  const FunctionDecl* fn = enclosing_function(s, ast);
  if (!fn || is_device_function(fn)) return true;
  if (host(fn).launches.empty()) return false;
  // Up to the launch that holds `s`, or to the whole expression `s` is part of.
  const Stmt* node = s;
  DynTypedNodeList parents = ast.getParents(*s);
  while (!parents.empty()) {
    const DynTypedNode& p = parents[0];
    if (const auto* v = p.get<VarDecl>()) return judged_var(v, fn);
    if (p.get<TypeLoc>()) {  // an array bound: judged as the variable it sizes
      parents = ast.getParents(p);
      continue;
    }
    const Stmt* parent = p.get<Stmt>();
    if (!parent) return false;
    if (is_kernel_launch(parent)) return true;
    if (holds_full_expressions(parent)) return mentions_launch_var(node, fn);
    node = parent;
    parents = ast.getParents(p);
  }
  return false;
}

}  // namespace kta::analyzers
