// Modules: one parsed .kta file with its top-level names and the modules it imports. The loader
// resolves `import a.b` along the search path and reports missing modules and import cycles.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/load.h"

namespace kta::lang {

struct Module {
  std::string name;  // module path (std.inputs), or the file name for a file loaded directly
  uint32_t file = 0;
  std::filesystem::path path;  // absolute
  ast::File ast;
  std::map<std::string, const ast::Decl*> decls;  // top-level declarations by name
  std::map<std::string, Module*> imports;          // by alias, or full module path
  bool parsed = false;
  bool checked = false;  // its declarations went through check_module_decls
};

// Loads files and their imports once each; owns the modules.
class ModuleLoader {
 public:
  ModuleLoader(DiagnosticEngine& diags, const LoadOptions& options);

  // Loads a file and, transitively, its imports. Null when the file cannot be read or parsed.
  Module* load(const std::filesystem::path& path, SourceRange requested_at = {});
  DiagnosticEngine& diags() { return diags_; }
  const LoadOptions& options() const { return options_; }
  // Folders searched for `import` after the importing file's folder, in order.
  std::vector<std::filesystem::path> search_folders() const;
  std::vector<Module*> modules();

 private:
  void resolve_imports(Module& m);

  DiagnosticEngine& diags_;
  LoadOptions options_;
  std::map<std::filesystem::path, std::unique_ptr<Module>> modules_;
  std::vector<std::filesystem::path> loading_;  // the import chain now being loaded
  std::filesystem::path cwd_;                    // for short file names in messages
};

}  // namespace kta::lang
