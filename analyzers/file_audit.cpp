#include "analyzers/file_audit.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <fstream>
#include <sstream>

#include "analyzers/check.h"
#include "analyzers/hip_shim.h"

namespace kta::analyzers {
namespace {

namespace fs = std::filesystem;

#ifndef KTA_CLANG_RESOURCE_DIR
#error "KTA_CLANG_RESOURCE_DIR must be defined by the build"
#endif

// Clang's errors, clang style, in the order reported.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  explicit ErrorCollector(std::vector<std::string>& out) : out_(out) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string where = "kta-audit";
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(
          info.getSourceManager().getFileLoc(info.getLocation()));
      if (p.isValid()) where = fmt::format("{}:{}:{}", p.getFilename(), p.getLine(), p.getColumn());
    }
    const char* kind = level == clang::DiagnosticsEngine::Fatal ? "fatal error" : "error";
    out_.push_back(fmt::format("{}: {}: {}", where, kind, text.str().str()));
  }

 private:
  std::vector<std::string>& out_;
};

// Records `#define NAME 4096` in the audited file for the checks that judge named constants.
class MacroRecorder : public clang::PPCallbacks {
 public:
  MacroRecorder(const clang::SourceManager& sm, std::vector<MacroConstant>& out)
      : sm_(sm), out_(out) {}
  void MacroDefined(const clang::Token& name, const clang::MacroDirective* md) override {
    const clang::MacroInfo* mi = md->getMacroInfo();
    if (!mi || mi->isFunctionLike() || !sm_.isWrittenInMainFile(mi->getDefinitionLoc())) return;
    // The body: one number, possibly in parentheses.
    std::vector<clang::Token> tokens(mi->tokens().begin(), mi->tokens().end());
    while (tokens.size() >= 3 && tokens.front().is(clang::tok::l_paren) &&
           tokens.back().is(clang::tok::r_paren))
      tokens = std::vector<clang::Token>(tokens.begin() + 1, tokens.end() - 1);
    if (tokens.size() != 1 || !tokens[0].is(clang::tok::numeric_constant)) return;
    std::string text(tokens[0].getLiteralData(), tokens[0].getLength());
    while (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) text.pop_back();
    try {
      size_t used = 0;
      long long value = std::stoll(text, &used, 0);
      if (used != text.size()) return;
      out_.push_back({name.getIdentifierInfo()->getName().str(), value, tokens[0].getLocation()});
    } catch (const std::exception&) {
      // Not an integer (a float, or out of range): not a shape constant.
    }
  }

 private:
  const clang::SourceManager& sm_;
  std::vector<MacroConstant>& out_;
};

// Runs the matchers once the whole file is parsed, then each check's whole-file pass.
class AuditConsumer : public clang::ASTConsumer {
 public:
  AuditConsumer(std::vector<std::unique_ptr<Check>>& checks) : checks_(checks) {
    for (auto& c : checks_) c->register_matchers(finder_);
  }
  void HandleTranslationUnit(clang::ASTContext& ast) override {
    // Match only the audited file's own declarations: the shim and the system headers hold
    // nothing to report, and walking their ASTs would cost more than the audit itself.
    std::vector<clang::Decl*> own;
    const clang::SourceManager& sm = ast.getSourceManager();
    for (clang::Decl* d : ast.getTranslationUnitDecl()->decls())
      if (d->getLocation().isValid() &&
          sm.isWrittenInMainFile(sm.getExpansionLoc(d->getLocation())))
        own.push_back(d);
    ast.setTraversalScope(own);
    finder_.matchAST(ast);
    for (auto& c : checks_) c->finish(ast);
  }

 private:
  std::vector<std::unique_ptr<Check>>& checks_;
  clang::ast_matchers::MatchFinder finder_;
};

class AuditAction : public clang::ASTFrontendAction {
 public:
  AuditAction(CheckContext& ctx, std::vector<std::unique_ptr<Check>>& checks)
      : ctx_(ctx), checks_(checks) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<MacroRecorder>(ci.getSourceManager(), ctx_.macros()));
    return std::make_unique<AuditConsumer>(checks_);
  }

 private:
  CheckContext& ctx_;
  std::vector<std::unique_ptr<Check>>& checks_;
};

std::vector<std::string> command_line(const fs::path& file,
                                      const std::vector<fs::path>& include_dirs) {
  std::vector<std::string> args = {
      "kta-audit", "-fsyntax-only", "-x", "hip", "--cuda-host-only", "-nogpuinc", "-nogpulib",
      "-std=c++17", "-w", "-ferror-limit=100", "-fno-color-diagnostics",
      // Without carets Clang does not end with "N errors generated
      // when compiling for host." on stderr; ErrorCollector has them.
      "-fno-caret-diagnostics", std::string("-resource-dir=") + KTA_CLANG_RESOURCE_DIR, "-isystem",
      std::string(kShimDir), "-include", std::string(kShimHeader)};
  for (const fs::path& dir : include_dirs) args.push_back("-I" + dir.string());
  args.push_back(file.string());
  return args;
}

}  // namespace

FileAudit audit_one_file(const fs::path& file, const ShapeSet& shapes,
                         const std::vector<fs::path>& include_dirs) {
  FileAudit audit;
  audit.file = file;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    audit.failure = fs::exists(file, ec) ? "not a regular file" : "no such file";
    return audit;
  }
  std::ifstream probe(file);
  if (!probe) {
    audit.failure = "cannot read the file";
    return audit;
  }

  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  for (const auto& [path, text] : shim_files())
    memory->addFile(path, 0,
                    llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size())));
  // <kta/launch.h>, the launcher ABI, from the source tree (only that header: the cpu runtime's
  // own hip/ headers beside it must not shadow the shim).
  if (auto abi =
          llvm::MemoryBuffer::getFile(std::string(KTA_RUNTIME_INCLUDE_DIR) + "/kta/launch.h"))
    memory->addFile(std::string(kShimDir) + "/kta/launch.h", 0, std::move(*abi));
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  std::vector<std::unique_ptr<Check>> checks = make_checks();
  CheckContext ctx(shapes, audit.findings);
  for (auto& c : checks) c->bind(ctx);
  ErrorCollector errors(audit.parse_errors);
  clang::tooling::ToolInvocation invocation(
      command_line(file, include_dirs), std::make_unique<AuditAction>(ctx, checks), files.get());
  invocation.setDiagnosticConsumer(&errors);
  bool ok = invocation.run();
  if (!ok && audit.parse_errors.empty()) audit.failure = "clang could not process the file";
  return audit;
}

}  // namespace kta::analyzers
