// CodeStore (engine/device/remote/code_store.h): the hip device's compiled code, kept across runs
// by the engine under a key no worker sees. Against a scripted worker: a first run builds and
// keeps the code, a later run (a fresh store on the same folder) loads it without building; a
// forged, truncated or renamed entry is rejected by name and built again; code from a worker in
// which candidate code has run is never kept; a request the worker cannot key, and a compile
// error, keep nothing.
#include "engine/device/remote/code_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/ipc/cache_key.h"

namespace {

namespace fs = std::filesystem;
using namespace kta::engine;
using kta::engine::remote::CodeStore;

// A worker that keys every request "K" (or nothing), builds "CODE:<source>" and records what it
// was asked.
struct ScriptedWorker {
  std::string key = "K";
  bool compile_error = false;
  int keys = 0, builds = 0, loads = 0, plain = 0;
  std::string loaded;  // the code handed over by the last load

  std::optional<CompileResult> operator()(const CompileRequest& q, std::string*) {
    CompileResult r;
    switch (q.exchange) {
      case CodeExchange::key:
        ++keys;
        r.ok = !key.empty();
        r.code_key = key;
        return r;
      case CodeExchange::build:
        ++builds;
        if (compile_error) {
          r.error = "compile error";
          r.log = "k.hip:3:1: error: nope";
          return r;
        }
        r.ok = true;
        r.code_key = key;
        r.code = "CODE:" + q.source.string();
        r.seconds = 2;
        return r;
      case CodeExchange::load:
        ++loads;
        loaded = q.code;
        r.ok = loaded.rfind("CODE:", 0) == 0;
        if (!r.ok) r.error = "cannot load the compiled kernel";
        r.module = 7;
        r.seconds = 1;
        return r;
      case CodeExchange::none:
        ++plain;
        r.ok = true;
        r.module = 8;
        return r;
    }
    return r;
  }
};

class CodeStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-code-store-" + std::to_string(std::random_device{}()));
    request.source = "k.hip";
    request.entry = "k";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // One compile through a fresh store on `dir`, as a new run would make.
  CompileResult compile(ScriptedWorker& w, bool clean = true) {
    std::string failure;
    auto send = [&w](const CompileRequest& q, std::string* f) { return w(q, f); };
    auto r = CodeStore(dir).compile(request, clean, send, &failure);
    EXPECT_TRUE(r.has_value()) << failure;
    return r.value_or(CompileResult{});
  }
  std::string entry_bytes() {
    std::ifstream in(dir / "K.code", std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void write_entry(const std::string& bytes) {
    std::ofstream(dir / "K.code", std::ios::binary | std::ios::trunc) << bytes;
  }

  fs::path dir;
  CompileRequest request;
};

TEST_F(CodeStoreTest, AFirstRunBuildsAndKeepsTheCodeALaterRunLoadsIt) {
  ScriptedWorker first;
  CompileResult a = compile(first);
  EXPECT_TRUE(a.ok) << a.error;
  EXPECT_FALSE(a.cache_hit);
  EXPECT_EQ(a.module, 7u);
  EXPECT_EQ(a.seconds, 3);  // the build's and the load's
  EXPECT_EQ(first.builds, 1);
  EXPECT_EQ(first.loaded, "CODE:k.hip");
  ASSERT_TRUE(fs::exists(dir / "K.code"));
  // The entry is tagged under the folder's key, which the engine made 0600.
  EXPECT_TRUE(fs::exists(dir / kta::engine::ipc::CacheKey::kFileName));
  EXPECT_EQ(fs::status(dir / kta::engine::ipc::CacheKey::kFileName).permissions() &
                (fs::perms::group_all | fs::perms::others_all),
            fs::perms::none);

  ScriptedWorker later;
  CompileResult b = compile(later);
  EXPECT_TRUE(b.ok) << b.error;
  EXPECT_TRUE(b.cache_hit);
  EXPECT_EQ(later.builds, 0);
  EXPECT_EQ(later.loads, 1);
  EXPECT_EQ(later.loaded, "CODE:k.hip");
  EXPECT_EQ(b.log.find("kta note: "), std::string::npos) << b.log;
}

TEST_F(CodeStoreTest, AForgedEntryIsRejectedByNameAndBuiltAgain) {
  ScriptedWorker first;
  compile(first);
  // What a worker that reached the folder would write: other code, no valid tag.
  std::string bytes = entry_bytes();
  bytes.replace(bytes.find("CODE:k.hip"), 10, "CODE:evil!");
  write_entry(bytes);

  ScriptedWorker later;
  CompileResult r = compile(later);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.cache_hit);
  EXPECT_EQ(later.builds, 1);
  EXPECT_EQ(later.loaded, "CODE:k.hip");  // never the forged code
  EXPECT_EQ(
      r.log.rfind("kta note: compile cache entry K.code fails authentication; recompiled\n", 0), 0u)
      << r.log;
  // Rebuilt and kept again, authentic.
  ScriptedWorker third;
  EXPECT_TRUE(compile(third).cache_hit);
  EXPECT_EQ(third.builds, 0);
}

TEST_F(CodeStoreTest, ATruncatedEntryIsRejectedByNameAndBuiltAgain) {
  for (size_t keep : {size_t(0), size_t(5), size_t(31)}) {
    ScriptedWorker first;
    compile(first);
    std::string bytes = entry_bytes();
    ASSERT_GT(bytes.size(), keep);
    write_entry(bytes.substr(0, bytes.size() - 1 - keep));  // the tag cut short, or more

    ScriptedWorker later;
    CompileResult r = compile(later);
    EXPECT_EQ(later.builds, 1) << keep;
    EXPECT_EQ(later.loaded, "CODE:k.hip") << keep;
    EXPECT_NE(r.log.find("compile cache entry K.code fails authentication; recompiled"),
              std::string::npos)
        << r.log;
  }
}

TEST_F(CodeStoreTest, AnotherEntrysBytesUnderThisNameFailAuthentication) {
  ScriptedWorker other;
  other.key = "OTHER";
  request.source = "other.hip";
  compile(other);
  fs::copy_file(dir / "OTHER.code", dir / "K.code");

  request.source = "k.hip";
  ScriptedWorker w;
  CompileResult r = compile(w);
  EXPECT_EQ(w.builds, 1);
  EXPECT_EQ(w.loaded, "CODE:k.hip");
  EXPECT_NE(r.log.find("compile cache entry K.code fails authentication"), std::string::npos)
      << r.log;
}

TEST_F(CodeStoreTest, CodeFromAWorkerThatRanCandidateCodeIsNotKept) {
  ScriptedWorker w;
  CompileResult r = compile(w, /*clean=*/false);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(w.loaded, "CODE:k.hip");  // used for this compile
  EXPECT_FALSE(fs::exists(dir / "K.code"));
  ScriptedWorker later;
  compile(later);
  EXPECT_EQ(later.builds, 1);
}

TEST_F(CodeStoreTest, ARequestTheWorkerCannotKeyIsCompiledAsUsual) {
  ScriptedWorker w;
  w.key.clear();
  CompileResult r = compile(w);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.module, 8u);
  EXPECT_EQ(w.plain, 1);
  EXPECT_EQ(w.builds, 0);
  EXPECT_FALSE(fs::exists(dir / ".code"));
}

TEST_F(CodeStoreTest, ACompileErrorKeepsAndLoadsNothing) {
  ScriptedWorker w;
  w.compile_error = true;
  CompileResult r = compile(w);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "compile error");
  EXPECT_EQ(r.log, "k.hip:3:1: error: nope");
  EXPECT_EQ(w.loads, 0);
  EXPECT_FALSE(fs::exists(dir / "K.code"));
}

// An authentic entry the device cannot load is dropped and built again, once, by name.
TEST_F(CodeStoreTest, AnEntryTheDeviceCannotLoadIsBuiltAgain) {
  ASSERT_TRUE(kta::engine::ipc::store_tagged(dir, "K.code", "STALE"));
  ScriptedWorker w;
  CompileResult r = compile(w);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(w.loads, 2);
  EXPECT_EQ(w.builds, 1);
  EXPECT_EQ(w.loaded, "CODE:k.hip");
  EXPECT_NE(r.log.find("compile cache entry K.code cannot be loaded (cannot load the compiled "
                       "kernel); recompiled"),
            std::string::npos)
      << r.log;
}

}  // namespace
