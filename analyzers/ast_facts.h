// AST facts the checks share: which variables of a function hold thread indices, sizes or
// global pointers, where its bounds checks are, and small expression predicates.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kta::analyzers {

// What one function's body says about its variables.
struct FunctionFacts {
  llvm::SmallPtrSet<const clang::VarDecl*, 16> thread_vars;  // derive from threadIdx
  llvm::SmallPtrSet<const clang::VarDecl*, 16> block_vars;   // derive from blockIdx only
  llvm::SmallPtrSet<const clang::VarDecl*, 16> size_vars;    // derive from size parameters
  llvm::SmallPtrSet<const clang::VarDecl*, 16>
      global_ptrs;  // pointer params and pointers into them
  // Bounds checks: comparisons (or min/max clamps) of a thread index against a size.
  std::vector<clang::SourceLocation> guards;
  // Loops whose condition depends on a size (grid-stride and row loops).
  bool has_size_loop = false;
  // Variables compared against a size (`c < cols`, `i >= n`): they range over a whole dimension.
  // The value is the size's name, for messages.
  std::map<const clang::VarDecl*, std::string> size_bounded;
  // Local arrays subscripted by a size-bounded variable (`row[c]` with `c < cols`), with that size.
  std::map<const clang::VarDecl*, std::string> size_indexed_arrays;
  // Variables that address global memory: in the index of a subscript of a global pointer, or
  // added to one (`x[idx]`, `x + offset`).
  llvm::SmallPtrSet<const clang::VarDecl*, 16> global_index_vars;
};

// Computes FunctionFacts once per function.
class FactsCache {
 public:
  const FunctionFacts& get(const clang::FunctionDecl* fn);

 private:
  std::map<const clang::FunctionDecl*, std::unique_ptr<FunctionFacts>> cache_;
};

// A kta_call parameter value or tensor extent: `call->params[0].i`, `t.shape[1]`.
bool is_launch_abi_size(const clang::Stmt* s);
// `__global__` or `__device__` (also `__host__ __device__`): code that runs on the device.
bool is_device_function(const clang::FunctionDecl* fn);
// The variable `e` names, through parentheses and implicit casts, or null.
const clang::VarDecl* named_var(const clang::Expr* e);
// True when `s` or one of its sub-statements satisfies `visit`.
bool any_of_tree(const clang::Stmt* s, const std::function<bool(const clang::Stmt*)>& visit);
// An integer (not bool, not char) scalar type: what sizes are passed as.
bool is_size_type(clang::QualType type);

// `threadIdx.x` or a variable derived from it.
bool mentions_thread_index(const clang::Stmt* s, const FunctionFacts& facts);
// `blockIdx`/`threadIdx`/`blockDim` or a variable derived from them (lane and warp math).
bool mentions_any_index(const clang::Stmt* s, const FunctionFacts& facts);
// An integer parameter, a variable derived from one, or a kta_call param/tensor shape.
bool mentions_size(const clang::Stmt* s, const FunctionFacts& facts);
// The integer value of a constant expression that names no runtime variable.
std::optional<int64_t> constant_value(const clang::Expr* e, const clang::ASTContext& ast);
// The variable or parameter an lvalue/pointer expression is based on (`x` in `(x + o)[i]`).
const clang::VarDecl* base_var(const clang::Expr* e);
// The first size variable/parameter named in `s`, for messages.
std::string size_name(const clang::Stmt* s, const FunctionFacts& facts);
// The function whose body holds `s`.
const clang::FunctionDecl* enclosing_function(const clang::Stmt* s, clang::ASTContext& ast);
// `__shfl_down`, `__shfl_xor_sync`, ...
bool is_shuffle_call(const clang::CallExpr* call);
// The name of a builtin index variable (threadIdx, blockIdx, blockDim, gridDim) a member
// expression reads, or "".
std::string builtin_index_name(const clang::Expr* e);

}  // namespace kta::analyzers
