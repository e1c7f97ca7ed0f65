// Check: one named kta-* rule. Like a clang-tidy check it registers small AST matchers and
// gets their matches in check(); CheckContext is what the checks of one file share.
#pragma once

#include <clang/ASTMatchers/ASTMatchFinder.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyzers/ast_facts.h"
#include "analyzers/audit.h"
#include "analyzers/launch_scope.h"
#include "analyzers/shapes.h"

namespace kta::analyzers {

// `#define NAME 4096` in the audited file: a macro whose body is one integer.
struct MacroConstant {
  std::string name;
  int64_t value = 0;
  clang::SourceLocation loc;
};

// Shared state of one file's audit: shape values, macro constants, per-function facts and the
// findings found so far.
class CheckContext {
 public:
  CheckContext(const ShapeSet& shapes, std::vector<Finding>& out) : shapes_(shapes), out_(out) {}

  const ShapeSet& shapes() const { return shapes_; }
  std::vector<MacroConstant>& macros() { return macros_; }
  const FunctionFacts& facts(const clang::FunctionDecl* fn) { return facts_.get(fn); }
  FactsCache& facts_cache() { return facts_; }
  // Which host code the shape checks judge (launch geometry, not host-only helpers).
  LaunchScope& scope() { return scope_; }

  // Records a finding at `loc` (mapped out of macros to the audited file; others are dropped).
  void report(const clang::SourceManager& sm, clang::SourceLocation loc, std::string_view check,
              std::string_view severity, std::string message);

 private:
  const ShapeSet& shapes_;
  std::vector<Finding>& out_;
  std::vector<MacroConstant> macros_;
  FactsCache facts_;
  LaunchScope scope_;
  std::set<std::tuple<std::string, unsigned, unsigned>> seen_;
};

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  explicit Check(std::string_view name);
  const std::string& name() const { return name_; }
  void bind(CheckContext& ctx) { ctx_ = &ctx; }

  virtual void register_matchers(clang::ast_matchers::MatchFinder& finder) = 0;
  // Gets every match of this check's matchers; dispatches on the bound names.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult& result) = 0;
  // Called once after all matches of the file: for rules that need the whole file.
  virtual void finish(clang::ASTContext&) {}

  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) final { check(result); }
  llvm::StringRef getID() const override { return name_; }

 protected:
  CheckContext& ctx() { return *ctx_; }
  void report(const clang::ASTContext& ast, clang::SourceLocation loc, std::string message);

 private:
  std::string name_;
  std::string severity_;
  CheckContext* ctx_ = nullptr;
};

// Every kta-* check, in catalog order.
std::vector<std::unique_ptr<Check>> make_checks();

}  // namespace kta::analyzers
