// Guarded specializations: `if (n == 4096) { fast path } else { general path }`, or
// `if (n == 4096) { fast path; return; } general path`, where the general path handles every
// size. Inside the fast branch the size is known, so code that assumes it there is no overfit;
// the checks leave it alone. Without a general path the branch itself is kta-shape-branch's.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/ast_facts.h"

namespace kta::analyzers {

struct Specialization {
  const clang::IfStmt* branch = nullptr;
  std::vector<int64_t> values;  // the sizes the branch is specialized for
};

// The innermost guarded specialization whose fast branch holds `s`, if any.
std::optional<Specialization> enclosing_specialization(const clang::Stmt* s, clang::ASTContext& ast,
                                                       FactsCache& facts);
// True when `value` is what the specialization knows: one of its sizes, or an exact divisor or
// multiple of one (a block count, a tile of it, a product with it).
bool specialization_explains(const Specialization& spec, int64_t value);
// The general path of an `if` on a size: its else branch, or (when the then branch ends by
// leaving) the statements after it; null when there is none that reads a size.
const clang::Stmt* general_fallback(const clang::IfStmt* s, clang::ASTContext& ast,
                                    const FunctionFacts& facts);

// `return;`, `{ printf("bad size"); return 1; }`: a branch that does no work, it only leaves.
bool only_exits(const clang::Stmt* s);
// True when statements follow `s` in its enclosing block: the code after an if.
bool has_code_after(const clang::Stmt* s, clang::ASTContext& ast);

}  // namespace kta::analyzers
