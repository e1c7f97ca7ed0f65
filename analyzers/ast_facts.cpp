#include "analyzers/ast_facts.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

#include <functional>

namespace kta::analyzers {
namespace {

using namespace clang;

const VarDecl* referenced_var(const Stmt* s) {
  if (const auto* ref = dyn_cast<DeclRefExpr>(s)) return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

}  // namespace

bool any_of_tree(const Stmt* s, const std::function<bool(const Stmt*)>& visit) {
  if (!s) return false;
  if (visit(s)) return true;
  for (const Stmt* child : s->children())
    if (any_of_tree(child, visit)) return true;
  return false;
}

const VarDecl* named_var(const Expr* e) {
  return e ? referenced_var(e->IgnoreParenImpCasts()) : nullptr;
}

bool is_device_function(const FunctionDecl* fn) {
  return fn && (fn->hasAttr<CUDAGlobalAttr>() || fn->hasAttr<CUDADeviceAttr>());
}

bool is_launch_abi_size(const Stmt* s) {
  const auto* member = dyn_cast<MemberExpr>(s);
  if (!member) return false;
  const auto* field = dyn_cast<FieldDecl>(member->getMemberDecl());
  if (!field || !field->getParent()->getIdentifier()) return false;
  llvm::StringRef record = field->getParent()->getName();
  llvm::StringRef name = field->getName();
  return (record == "kta_param" && name == "i") ||
         (record == "kta_tensor" && (name == "shape" || name == "ndim"));
}

namespace {

bool is_size_param(const VarDecl* v) {
  return v && isa<ParmVarDecl>(v) && is_size_type(v->getType().getNonReferenceType());
}

bool is_min_max_call(const CallExpr* call) {
  const FunctionDecl* fn = call->getDirectCallee();
  if (!fn || !fn->getIdentifier()) return false;
  llvm::StringRef n = fn->getName();
  return n == "min" || n == "max" || n == "fmin" || n == "fminf" || n == "umin" || n == "clamp";
}

// Collects, in source order, every variable initialization and assignment of a body.
class FlowCollector : public RecursiveASTVisitor<FlowCollector> {
 public:
  struct Def {
    const VarDecl* var;
    const Expr* value;
  };
  std::vector<Def> defs;
  std::vector<const Stmt*> comparisons;  // comparisons and min/max calls
  std::vector<const Stmt*> loop_conditions;
  std::vector<const ArraySubscriptExpr*> subscripts;
  std::vector<const BinaryOperator*> pointer_offsets;  // `p + e`, `p += e`, `e + p`

  bool VisitVarDecl(VarDecl* v) {
    if (v->hasInit()) defs.push_back({v, v->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp())
      if (const VarDecl* v = referenced_var(op->getLHS()->IgnoreParenImpCasts()))
        defs.push_back({v, op->getRHS()});
    if (op->isComparisonOp()) comparisons.push_back(op);
    if ((op->getOpcode() == BO_Add || op->getOpcode() == BO_AddAssign) &&
        op->getType()->isPointerType())
      pointer_offsets.push_back(op);
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    if (is_min_max_call(call)) comparisons.push_back(call);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    subscripts.push_back(e);
    return true;
  }
  bool VisitForStmt(ForStmt* s) {
    if (s->getCond()) loop_conditions.push_back(s->getCond());
    return true;
  }
  bool VisitWhileStmt(WhileStmt* s) {
    loop_conditions.push_back(s->getCond());
    return true;
  }
  bool VisitDoStmt(DoStmt* s) {
    loop_conditions.push_back(s->getCond());
    return true;
  }
};

// The variables a comparison bounds by a size: `c` in `c < cols` (not `c < 256`).
void add_size_bounds(const Stmt* cmp, FunctionFacts& facts) {
  const auto* op = dyn_cast<BinaryOperator>(cmp);
  if (!op) return;
  for (auto [var_side, bound_side] :
       {std::pair{op->getLHS(), op->getRHS()}, std::pair{op->getRHS(), op->getLHS()}}) {
    const VarDecl* v = named_var(var_side);
    if (!v || !v->getType()->isIntegerType() || !mentions_size(bound_side, facts)) continue;
    if (mentions_thread_index(bound_side, facts)) continue;
    facts.size_bounded.emplace(v, size_name(bound_side, facts));
  }
}

// Which variables range over a whole dimension, which local arrays they index, and which
// variables address global memory.
void compute_ranges(const FlowCollector& flow, FunctionFacts& facts) {
  for (const Stmt* cmp : flow.comparisons) add_size_bounds(cmp, facts);
  auto add_index_vars = [&](const Stmt* index) {
    any_of_tree(index, [&](const Stmt* x) {
      if (const VarDecl* v = referenced_var(x)) facts.global_index_vars.insert(v);
      return false;
    });
  };
  for (const ArraySubscriptExpr* sub : flow.subscripts) {
    const VarDecl* base = base_var(sub->getBase());
    if (base && facts.global_ptrs.count(base)) add_index_vars(sub->getIdx());
    const VarDecl* index = named_var(sub->getIdx());
    auto bounded = index ? facts.size_bounded.find(index) : facts.size_bounded.end();
    if (base && !facts.global_ptrs.count(base) && bounded != facts.size_bounded.end())
      facts.size_indexed_arrays.emplace(base, bounded->second);
  }
  for (const BinaryOperator* op : flow.pointer_offsets) {
    const Expr* ptr = op->getLHS()->getType()->isPointerType() ? op->getLHS() : op->getRHS();
    const VarDecl* base = base_var(ptr);
    if (base && facts.global_ptrs.count(base))
      add_index_vars(ptr == op->getLHS() ? op->getRHS() : op->getLHS());
  }
}

std::unique_ptr<FunctionFacts> compute_facts(const FunctionDecl* fn) {
  auto facts = std::make_unique<FunctionFacts>();
  for (const ParmVarDecl* p : fn->parameters())
    if (p->getType()->isPointerType() || p->getType()->isArrayType()) facts->global_ptrs.insert(p);
  if (!fn->hasBody()) return facts;
  FlowCollector flow;
  flow.TraverseStmt(const_cast<Stmt*>(fn->getBody()));
  // A few rounds reach variables derived from derived variables.
  for (int round = 0; round < 3; ++round) {
    for (const auto& def : flow.defs) {
      const VarDecl* v = def.var;
      QualType type = v->getType().getNonReferenceType();
      if (type->isPointerType()) {
        bool into_global = any_of_tree(def.value, [&](const Stmt* s) {
          const VarDecl* r = referenced_var(s);
          return r && facts->global_ptrs.count(r);
        });
        if (into_global) facts->global_ptrs.insert(v);
        continue;
      }
      if (!type->isIntegerType()) continue;
      if (mentions_thread_index(def.value, *facts)) {
        facts->thread_vars.insert(v);
      } else if (!builtin_index_name(def.value).empty() ||
                 any_of_tree(def.value, [&](const Stmt* s) {
                   const VarDecl* r = referenced_var(s);
                   return (r && facts->block_vars.count(r)) ||
                          builtin_index_name(dyn_cast<Expr>(s)) == "blockIdx";
                 })) {
        facts->block_vars.insert(v);
      }
      if (!facts->thread_vars.count(v) && mentions_size(def.value, *facts))
        facts->size_vars.insert(v);
    }
  }
  for (const Stmt* cmp : flow.comparisons) {
    bool has_thread = false, has_size = false;
    auto check_side = [&](const Stmt* side) {
      bool t = mentions_thread_index(side, *facts);
      has_thread = has_thread || t;
      // A size on a side of its own (not the thread index side itself).
      has_size = has_size || (!t && mentions_size(side, *facts));
    };
    if (const auto* op = dyn_cast<BinaryOperator>(cmp)) {
      check_side(op->getLHS());
      check_side(op->getRHS());
    } else if (const auto* call = dyn_cast<CallExpr>(cmp)) {
      for (const Expr* arg : call->arguments()) check_side(arg);
    }
    if (has_thread && has_size) facts->guards.push_back(cmp->getBeginLoc());
  }
  for (const Stmt* cond : flow.loop_conditions)
    if (mentions_size(cond, *facts)) facts->has_size_loop = true;
  compute_ranges(flow, *facts);
  return facts;
}

}  // namespace

const FunctionFacts& FactsCache::get(const FunctionDecl* fn) {
  auto& slot = cache_[fn];
  if (!slot) slot = compute_facts(fn);
  return *slot;
}

bool is_size_type(QualType type) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (!type->isIntegerType() || type->isBooleanType() || type->isEnumeralType()) return false;
  return !type->isAnyCharacterType();
}

std::string builtin_index_name(const Expr* e) {
  if (!e) return {};
  const auto* member = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!member) return {};
  const auto* ref = dyn_cast<DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
  if (!ref || !ref->getDecl()->getIdentifier()) return {};
  llvm::StringRef n = ref->getDecl()->getName();
  if (n == "threadIdx" || n == "blockIdx" || n == "blockDim" || n == "gridDim") return n.str();
  return {};
}

bool mentions_thread_index(const Stmt* s, const FunctionFacts& facts) {
  return any_of_tree(s, [&](const Stmt* x) {
    if (const VarDecl* v = referenced_var(x)) return facts.thread_vars.count(v) > 0;
    if (const auto* call = dyn_cast<CallExpr>(x))
      if (const FunctionDecl* fn = call->getDirectCallee(); fn && fn->getIdentifier())
        if (fn->getName() == "__lane_id") return true;
    return builtin_index_name(dyn_cast<Expr>(x)) == "threadIdx";
  });
}

bool mentions_any_index(const Stmt* s, const FunctionFacts& facts) {
  return any_of_tree(s, [&](const Stmt* x) {
    if (const VarDecl* v = referenced_var(x))
      return facts.thread_vars.count(v) > 0 || facts.block_vars.count(v) > 0;
    std::string n = builtin_index_name(dyn_cast<Expr>(x));
    return n == "threadIdx" || n == "blockIdx" || n == "blockDim";
  });
}

bool mentions_size(const Stmt* s, const FunctionFacts& facts) {
  return any_of_tree(s, [&](const Stmt* x) {
    if (const VarDecl* v = referenced_var(x))
      return is_size_param(v) || facts.size_vars.count(v) > 0;
    return is_launch_abi_size(x);
  });
}

std::string size_name(const Stmt* s, const FunctionFacts& facts) {
  std::string name;
  any_of_tree(s, [&](const Stmt* x) {
    if (const VarDecl* v = referenced_var(x); v && (is_size_param(v) || facts.size_vars.count(v))) {
      name = v->getName().str();
      return true;
    }
    if (is_launch_abi_size(x)) {
      name = cast<MemberExpr>(x)->getMemberDecl()->getName().str();
      return true;
    }
    return false;
  });
  return name;
}

std::optional<int64_t> constant_value(const Expr* e, const ASTContext& ast) {
  if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  // Only literal arithmetic and named constants: a `const int n = argc;` must not count.
  bool runtime = any_of_tree(e, [](const Stmt* x) {
    if (const VarDecl* v = referenced_var(x))
      return !v->isConstexpr() && !v->getType().isConstQualified();
    return isa<CallExpr>(x) || isa<MemberExpr>(x);
  });
  if (runtime) return std::nullopt;
  Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ast)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

const VarDecl* base_var(const Expr* e) {
  while (e) {
    e = e->IgnoreParenCasts();
    if (const VarDecl* v = referenced_var(e)) return v;
    if (const auto* op = dyn_cast<BinaryOperator>(e)) {
      // Pointer arithmetic: the pointer side.
      e = op->getLHS()->getType()->isPointerType() ? op->getLHS() : op->getRHS();
      continue;
    }
    if (const auto* un = dyn_cast<UnaryOperator>(e)) {
      e = un->getSubExpr();
      continue;
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {
      e = sub->getBase();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

const FunctionDecl* enclosing_function(const Stmt* s, ASTContext& ast) {
  DynTypedNodeList parents = ast.getParents(*s);
  while (!parents.empty()) {
    const DynTypedNode& p = parents[0];
    if (const auto* fn = p.get<FunctionDecl>()) return fn;
    if (p.get<LambdaExpr>()) return nullptr;
    parents = ast.getParents(p);
  }
  return nullptr;
}

bool is_shuffle_call(const CallExpr* call) {
  const FunctionDecl* fn = call ? call->getDirectCallee() : nullptr;
  return fn && fn->getIdentifier() && fn->getName().startswith("__shfl");
}

}  // namespace kta::analyzers
