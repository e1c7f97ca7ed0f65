// kta-shape-branch: a branch on a size parameter against a literal (`if (n == 4096)`,
// `if (n != 4096) return;`, `switch (n)` without default) that leaves no general path.
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
};

}  // namespace kta::analyzers
