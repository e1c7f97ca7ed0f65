// kta-shape-branch: a branch on a size parameter against a literal (`if (n == 4096)`,
// `if (n != 4096) return;`, `switch (n)` without default) that leaves no general path; in host
// code only where the branch decides a kernel launch.
#pragma once

#include "analyzers/check.h"

namespace kta::analyzers {

class ShapeBranchCheck : public Check {
 public:
  ShapeBranchCheck() : Check("kta-shape-branch") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  void on_if(const clang::IfStmt* s, clang::ASTContext& ast);
  void on_switch(const clang::SwitchStmt* s, clang::ASTContext& ast);
  // Host code is judged only where it decides a launch: the branch holds one, or the size it
  // tests feeds one, or it tests a visible shape value in a function that launches.
  bool judged(const clang::Stmt* s, const clang::Expr* size_side, int64_t value,
              const clang::FunctionDecl* fn);
};

}  // namespace kta::analyzers
