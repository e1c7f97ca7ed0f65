// kta-unguarded-index: a kernel reads or writes global memory at an index built from the
// thread index, with no bounds check of that index against a size parameter before it.
#pragma once

#include <set>
#include <utility>

#include "analyzers/check.h"

namespace kta::analyzers {

class UnguardedIndexCheck : public Check {
 public:
  UnguardedIndexCheck() : Check("kta-unguarded-index") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  // One finding per (kernel, pointer): the first unguarded access says enough.
  std::set<std::pair<const clang::FunctionDecl*, const clang::VarDecl*>> reported_;
};

}  // namespace kta::analyzers
