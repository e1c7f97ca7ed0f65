// Import resolution: the importing file's folder first, then search_path, KTA_PATH, the stdlib;
// missing modules and cycles are errors.
#include <gtest/gtest.h>

#include <cstdlib>

#include "engine/settings/settings.h"
#include "lang/module.h"
#include "support.h"

namespace kta::lang::test {
namespace {

struct ImportTest : ::testing::Test {
  TempDir dir;
  std::string out;
};

TEST_F(ImportTest, ImportingFolderComesFirst) {
  dir.write("lib/m.kta", "const X = 1\n");
  dir.write("app/m.kta", "const X = 2\n");
  auto f = dir.write("app/main.kta", "import m\nconst Y = m.X + 40\nconst Z = Y / (Y - 42)\n");
  auto options = fixture_options();
  options.search_path = {dir.path() / "lib"};
  EXPECT_FALSE(load(f, out, options));  // app/m.kta wins: Y = 42, so Z divides by zero
  EXPECT_NE(out.find("division by zero"), std::string::npos) << out;
}

TEST_F(ImportTest, SearchPathThenStdlib) {
  dir.write("lib/mylib/presets.kta", "tolerance loose { atol 1  rtol 1 }\n");
  auto f = dir.write("app/main.kta", "import mylib.presets as p\nimport std.inputs\nconst A = 1\n");
  auto options = fixture_options();
  EXPECT_FALSE(load(f, out, options));
  EXPECT_NE(out.find("cannot find module 'mylib.presets' (looked for 'mylib/presets.kta')"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("note: searched: "), std::string::npos) << out;
  options.search_path = {dir.path() / "lib"};
  EXPECT_TRUE(load(f, out, options)) << out;
}

TEST_F(ImportTest, KtaPathFromTheSettingsIsSearched) {
  dir.write("envlib/extra.kta", "const E = 3\n");
  auto f = dir.write("main.kta", "import extra\nconst F = extra.E\n");
  auto options = fixture_options();
  std::string path = "/nonexistent:" + (dir.path() / "envlib").string();
  options.search_path = engine::settings_from({{"KTA_PATH", path}}).module_path;
  EXPECT_TRUE(load(f, out, options)) << out;
  options.search_path = engine::settings_from({}).module_path;
  EXPECT_FALSE(load(f, out, options));
}

TEST_F(ImportTest, StdlibOverrideFromTheSettings) {
  dir.write("mystd/std/special.kta", "const S = 1\n");
  auto f = dir.write("main.kta", "import std.special\n");
  LoadOptions options;  // no stdlib_dir: the built-in one
  options.stdlib_dir =
      engine::settings_from({{"KTA_STDLIB", (dir.path() / "mystd").string()}}).stdlib_dir;
  EXPECT_TRUE(load(f, out, options)) << out;
  options.stdlib_dir = engine::settings_from({{"KTA_STDLIB", ""}}).stdlib_dir;
  EXPECT_FALSE(load(f, out, options));
}

TEST_F(ImportTest, CyclesAreErrors) {
  dir.write("a.kta", "import b\n");
  dir.write("b.kta", "import c\n");
  dir.write("c.kta", "import a\n");
  EXPECT_FALSE(load(dir.path() / "a.kta", out));
  EXPECT_NE(out.find("error: import cycle: a.kta -> b.kta -> c.kta -> a.kta"), std::string::npos)
      << out;
  dir.write("self.kta", "import self\n");
  EXPECT_FALSE(load(dir.path() / "self.kta", out));
  EXPECT_NE(out.find("import cycle: self.kta -> self.kta"), std::string::npos) << out;
}

TEST_F(ImportTest, DiamondImportsLoadOnce) {
  dir.write("base.kta", "const B = 1\n");
  dir.write("l.kta", "import base\nconst L = base.B\n");
  dir.write("r.kta", "import base\nconst R = base.B\n");
  auto f = dir.write("top.kta", "import l\nimport r\nconst T = l.L + r.R\n");
  EXPECT_TRUE(load(f, out)) << out;
}

TEST_F(ImportTest, AliasAndUnknownMember) {
  auto f =
      dir.write("main.kta", "import std.tolerances as tol\nconst X = tol.EPS\nconst Y = tol.EPZ\n");
  EXPECT_FALSE(load(f, out));
  EXPECT_NE(out.find("module 'tol' has no 'EPZ'; did you mean 'EPS'?"), std::string::npos) << out;
}

TEST_F(ImportTest, ErrorsInImportedFilesPointIntoThem) {
  dir.write("bad.kta", "const X = 1 +\n");
  auto f = dir.write("main.kta", "import bad\n");
  EXPECT_FALSE(load(f, out));
  EXPECT_NE(out.find("bad.kta:1:14: error: expected an expression, found end of line"),
            std::string::npos)
      << out;
}

// LoadOptions::module_cache: imports parsed once across load_file calls, re-read when the file
// changes, and the same diagnostics as without it.
TEST_F(ImportTest, ModuleCacheReusesImportsAndSeesChanges) {
  dir.write("lib.kta", "const X = 1\n");
  auto f = dir.write("main.kta", "import lib\nconst Y = lib.X + 41\nconst Z = 1 / (Y - 42)\n");
  ModuleCache cache;
  auto options = fixture_options();
  options.module_cache = &cache;
  std::string plain;
  EXPECT_FALSE(load(f, plain));
  EXPECT_NE(plain.find("division by zero"), std::string::npos) << plain;
  EXPECT_FALSE(load(f, out, options));
  EXPECT_EQ(out, plain);
  EXPECT_EQ(cache.size(), 1u);  // the import only, not the file loaded
  EXPECT_FALSE(load(f, out, options));
  EXPECT_EQ(out, plain);
  dir.write("lib.kta", "const X = 100\n");  // another size: the cached entry is stale
  EXPECT_TRUE(load(f, out, options)) << out;
  EXPECT_TRUE(load(f, out, options)) << out;
  EXPECT_EQ(cache.size(), 1u);
}

TEST_F(ImportTest, ModuleCacheKeepsDiagnosticsInImports) {
  dir.write("bad.kta", "const A = 1\nconst A = 2\n");  // parses; a duplicate found when loading
  dir.write("broken.kta", "const = \n");               // a syntax error: never cached
  auto f = dir.write("main.kta", "import bad\nimport broken\nconst B = bad.A\n");
  ModuleCache cache;
  auto options = fixture_options();
  options.module_cache = &cache;
  std::string plain;
  EXPECT_FALSE(load(f, plain));
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(load(f, out, options));
    EXPECT_EQ(out, plain);
  }
  EXPECT_EQ(cache.size(), 1u);
}

TEST_F(ImportTest, ModuleCacheIsNotUsedUnderAnotherFileId) {
  dir.write("lib.kta", "const X = 1\n");
  dir.write("other.kta", "const O = 2\n");
  auto a = dir.write("a.kta", "import lib\nconst Y = lib.X\n");
  auto b = dir.write("b.kta", "import other\nimport lib\nconst Y = lib.X / 0\n");
  ModuleCache cache;
  auto options = fixture_options();
  options.module_cache = &cache;
  EXPECT_TRUE(load(a, out, options)) << out;  // lib.kta cached as file 2
  std::string plain;
  EXPECT_FALSE(load(b, plain));
  EXPECT_FALSE(load(b, out, options));  // lib.kta is file 3 here: parsed again
  EXPECT_EQ(out, plain);
  EXPECT_NE(out.find("division by zero"), std::string::npos) << out;
  EXPECT_TRUE(load(a, out, options)) << out;
}

}  // namespace
}  // namespace kta::lang::test
