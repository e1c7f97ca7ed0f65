// LaunchScope: which host code the shape checks judge. Device code (`__global__`, `__device__`)
// is always judged; host code only where it computes a launch: a kernel launch's configuration
// and arguments, and statements that mention a variable flowing into one. A host function's
// page size, recursion depth or scratch buffer says nothing about the kernel's shapes.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "analyzers/ast_facts.h"

namespace kta::analyzers {

// What one host function launches and which of its variables feed those launches.
struct HostLaunches {
  // `k<<<g, b>>>(...)`, `hipLaunchKernel(...)`, and calls of host functions that launch.
  std::vector<const clang::Expr*> launches;
  // Variables named in a launch, and (transitively) the variables their values derive from.
  llvm::SmallPtrSet<const clang::VarDecl*, 16> vars;
};

class LaunchScope {
 public:
  // True when the checks judge the code at `s`: device code, file scope, or host launch code.
  bool judged(const clang::Stmt* s, clang::ASTContext& ast);
  // True when a variable declared in `fn` is judged as a named constant: `fn` runs on the
  // device, or the variable feeds a launch of `fn`.
  bool judged_var(const clang::VarDecl* v, const clang::FunctionDecl* fn);
  // True when `s` mentions a variable that feeds one of `fn`'s launches (or a kta_call size).
  bool mentions_launch_var(const clang::Stmt* s, const clang::FunctionDecl* fn);
  // True when `s` is, or contains, a kernel launch.
  static bool contains_launch(const clang::Stmt* s);
  const HostLaunches& host(const clang::FunctionDecl* fn);
  // True when `kernel` is launched in the audited file, and every launch is in the fast branch
  // of a guarded specialization (specialization.h).
  bool launched_only_specialized(const clang::FunctionDecl* kernel, clang::ASTContext& ast,
                                 FactsCache& facts);

 private:
  std::map<const clang::FunctionDecl*, std::unique_ptr<HostLaunches>> cache_;
  // Every `<<<>>>` launch of the audited file by the kernel it launches; built on first use.
  std::optional<std::map<const clang::FunctionDecl*, std::vector<const clang::Expr*>>> by_kernel_;
};

// `k<<<...>>>(...)` (also what `hipLaunchKernelGGL` expands to) or a call of `hipLaunchKernel`.
bool is_kernel_launch(const clang::Stmt* s);

}  // namespace kta::analyzers
