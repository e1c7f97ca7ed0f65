// The on-disk reference cache (engine/execute/reference_cache.h): an entry written for a task
// reads back the same outputs, whatever the dtypes of the task's inputs (entries of tasks with
// f16 inputs once never read back, so every run recomputed every reference), and an entry whose
// output dtype no longer matches the task is a miss.
#include "engine/execute/reference_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/execute/bindings.h"
#include "engine/ipc/cache_key.h"
#include "tests/support/engine_task_builder.h"

namespace kta::test {
namespace {

namespace fs = std::filesystem;

struct CacheDir {
  fs::path path = fs::temp_directory_path() / ("kta-refcache-" + std::to_string(getpid()));
  CacheDir() { fs::remove_all(path); }
  ~CacheDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

engine::HostSet outputs_of(const model::Task& task, const engine::PointSpec& spec) {
  engine::HostSet set(task.tensors.size());
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    if (!engine::is_output(task.tensors[i])) continue;  // as DeviceSet::download_outputs leaves it
    set[i] = engine::HostTensor::zeros(task.tensors[i].dtype, spec.shapes[i]);
    for (size_t b = 0; b < set[i].bytes.size(); ++b) set[i].bytes[b] = std::byte(b * 7 + i);
  }
  return set;
}

TEST(ReferenceCache, EntriesReadBackWhateverTheInputDtypes) {
  for (model::DType in :
       {model::DType::f32, model::DType::f16, model::DType::bf16, model::DType::i32}) {
    for (model::DType out : {model::DType::f32, model::DType::f16}) {
      CacheDir dir;
      model::Task task = vector_add_task("vadd", "/nonexistent", "ref.fake", "add.fake");
      task.tensors[0].dtype = task.tensors[1].dtype = in;
      task.tensors[2].dtype = out;
      engine::PointSpec spec = engine::make_point_spec(task, {{"N", 100}});
      engine::ReferenceCache cache(dir.path);
      std::string key = engine::ReferenceCache::key(task, spec.point, 1, "cpu");
      engine::HostSet want = outputs_of(task, spec);
      cache.store(key, want);
      std::string note;
      auto got = cache.load(key, task, &note);
      ASSERT_TRUE(got.has_value()) << "inputs " << engine::dtype_name(in) << ", output "
                                   << engine::dtype_name(out) << ": " << note;
      EXPECT_EQ((*got)[2].bytes, want[2].bytes);
      EXPECT_EQ((*got)[2].shape, want[2].shape);
      // The task's output dtype changed since: not this entry.
      model::Task other = task;
      other.tensors[2].dtype = out == model::DType::f32 ? model::DType::f16 : model::DType::f32;
      EXPECT_FALSE(cache.load(key, other).has_value());
    }
  }
}

// A task check's verdict (prepare's "the task is not degenerate") is kept as a mark under a key
// of the task's content, points, seeds and device: recalled once written, by that key only; a
// mark written by anyone without the folder's key (planted, or copied in from elsewhere) is not.
TEST(ReferenceCache, TaskCheckVerdictsAreAuthenticatedMarks) {
  CacheDir dir;
  model::Task task = vector_add_task("vadd", "/nonexistent", "ref.fake", "add.fake");
  std::vector<model::ShapePoint> points = {{{"N", 100}}, {{"N", 4096}}};
  engine::ReferenceCache cache(dir.path);
  std::string key = engine::ReferenceCache::task_check_key(task, points, 2, "cpu/warp64");
  EXPECT_FALSE(cache.recall(key));
  cache.remember(key);
  EXPECT_TRUE(cache.recall(key));
  // Another point list, seed count, device or task content is another verdict.
  EXPECT_NE(engine::ReferenceCache::task_check_key(task, {points[0]}, 2, "cpu/warp64"), key);
  EXPECT_NE(engine::ReferenceCache::task_check_key(task, points, 3, "cpu/warp64"), key);
  EXPECT_NE(engine::ReferenceCache::task_check_key(task, points, 2, "hip/warp32"), key);
  model::Task edited = task;
  edited.content_hash = "0123456789abcdef";
  EXPECT_NE(engine::ReferenceCache::task_check_key(edited, points, 2, "cpu/warp64"), key);
  // A forged mark: the right text with a wrong tag, or under another name, is not recalled.
  std::string forged = engine::ReferenceCache::task_check_key(edited, points, 2, "cpu/warp64");
  std::string mark;
  ASSERT_TRUE(engine::ipc::read_whole_file(dir.path / (key + ".ok"), &mark));
  {
    std::ofstream out(dir.path / (forged + ".ok"), std::ios::binary);
    out << mark;  // a genuine mark copied to another verdict's name
  }
  EXPECT_FALSE(cache.recall(forged));
  mark.back() = static_cast<char>(mark.back() ^ 1);
  {
    std::ofstream out(dir.path / (key + ".ok"), std::ios::binary);
    out << mark;
  }
  EXPECT_FALSE(cache.recall(key));
  // No folder: nothing is kept.
  engine::ReferenceCache off{fs::path()};
  off.remember(key);
  EXPECT_FALSE(off.recall(key));
}

}  // namespace
}  // namespace kta::test
