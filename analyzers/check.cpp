#include "analyzers/check.h"

#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace kta::analyzers {

Check::Check(std::string_view name) : name_(name) {
  const auto& catalog = check_catalog();
  auto it = std::find_if(catalog.begin(), catalog.end(),
                         [&](const CheckInfo& c) { return c.name == name; });
  severity_ = it == catalog.end() ? "warning" : it->severity;
}

void Check::report(const clang::ASTContext& ast, clang::SourceLocation loc, std::string message) {
  ctx().report(ast.getSourceManager(), loc, name_, severity_, std::move(message));
}

void CheckContext::report(const clang::SourceManager& sm, clang::SourceLocation loc,
                          std::string_view check, std::string_view severity, std::string message) {
  if (loc.isInvalid()) return;
  // A macro argument is shown where it was written; anything else from a macro at its use.
  if (loc.isMacroID())
    loc = sm.isMacroArgExpansion(loc) ? sm.getSpellingLoc(loc) : sm.getExpansionLoc(loc);
  if (!sm.isWrittenInMainFile(loc)) return;
  clang::PresumedLoc where = sm.getPresumedLoc(loc, /*UseLineDirectives=*/false);
  if (where.isInvalid()) return;
  unsigned line = where.getLine(), column = where.getColumn();
  if (!seen_.emplace(std::string(check), line, column).second) return;

  std::string snippet;
  bool invalid = false;
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(loc), &invalid);
  if (!invalid) {
    unsigned offset = sm.getFileOffset(loc);
    size_t begin = buffer.rfind('\n', offset);
    begin = begin == llvm::StringRef::npos ? 0 : begin + 1;
    size_t end = buffer.find('\n', offset);
    snippet = buffer.slice(begin, end).rtrim("\r").str();
  }
  out_.push_back(Finding{std::string(check), std::string(severity), where.getFilename(), line,
                         column, std::move(message), std::move(snippet)});
}

}  // namespace kta::analyzers
