// Modules: one parsed .kta file with its top-level names and the modules it imports. The loader
// resolves `import a.b` along the search path and reports missing modules and import cycles.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/load.h"

namespace kta::lang {

// The stdlib folder kta was built with (Settings::stdlib_dir, from $KTA_STDLIB, overrides it).
std::filesystem::path default_stdlib_dir();

struct Module {
  std::string name;  // module path (std.inputs), or the file name for a file loaded directly
  uint32_t file = 0;
  std::filesystem::path path;  // absolute
  ast::File ast;
  std::map<std::string, const ast::Decl*> decls;  // top-level declarations by name
  std::map<std::string, Module*> imports;         // by alias, or full module path
  bool parsed = false;
  bool checked = false;  // its declarations went through check_module_decls
};

// Parsed imported modules kept across loads (LoadOptions::module_cache), keyed by absolute
// normalized path and checked against the file's size and modification time. The caller owns it;
// not thread-safe. An entry is reused only where its file gets the same SourceManager id it was
// parsed under (the ranges in its syntax tree carry that id), else the file is parsed again.
class ModuleCache {
 public:
  struct Stamp {
    uintmax_t size = 0;
    std::filesystem::file_time_type mtime{};
    bool operator==(const Stamp&) const = default;
  };
  struct Entry {
    Stamp stamp;
    uint32_t file = 0;  // SourceManager id the syntax tree's ranges point at
    std::string name;   // what messages call the file
    std::string text;
    std::vector<uint32_t> line_starts;
    ast::File ast;
  };
  // The entry for `path` when its stamp matches; null otherwise.
  const Entry* find(const std::string& path, const Stamp& stamp) const;
  void store(const std::string& path, Entry entry);
  size_t size() const { return entries_.size(); }
  void clear() { entries_.clear(); }

 private:
  std::unordered_map<std::string, Entry> entries_;
};

// Loads files and their imports once each; owns the modules.
class ModuleLoader {
 public:
  ModuleLoader(DiagnosticEngine& diags, const LoadOptions& options);

  // Loads a file and, transitively, its imports. Null when the file cannot be read or parsed.
  // `cacheable`: may come from, and goes into, LoadOptions::module_cache (imports).
  Module* load(const std::filesystem::path& path, SourceRange requested_at = {},
               bool cacheable = false);
  DiagnosticEngine& diags() { return diags_; }
  const LoadOptions& options() const { return options_; }
  // Folders searched for `import` after the importing file's folder, in order.
  // Read once, when the loader is made (KTA_PATH, KTA_STDLIB).
  const std::vector<std::filesystem::path>& search_folders() const { return folders_; }
  std::vector<Module*> modules();

 private:
  // Fills m.file and m.ast from the module cache or by reading and parsing `path`; false (with
  // the problem reported) when it cannot be read or parsed.
  bool read_module(Module& m, const std::filesystem::path& path, const std::string& display,
                   SourceRange requested_at, bool cacheable);
  void resolve_imports(Module& m);
  std::vector<std::filesystem::path> compute_search_folders() const;

  DiagnosticEngine& diags_;
  LoadOptions options_;
  std::map<std::filesystem::path, std::unique_ptr<Module>> modules_;
  std::unordered_map<std::string, Module*> by_path_;  // modules_ by path string, for lookups
  std::vector<std::filesystem::path> loading_;        // the import chain now being loaded
  std::filesystem::path cwd_;                         // for short file names in messages
  std::vector<std::filesystem::path> folders_;        // search_folders()
};

}  // namespace kta::lang
