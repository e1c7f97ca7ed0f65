#include "engine/device/cpu/kernel_signature.h"

#include <cstring>
#include <map>

namespace kta::engine::cpu {
namespace {

const char* arg_type_code(ArgType t) {
  switch (t) {
    case ArgType::ptr:
      return "ptr";
    case ArgType::i8:
      return "i8";
    case ArgType::u8:
      return "u8";
    case ArgType::i32:
      return "i32";
    case ArgType::u32:
      return "u32";
    case ArgType::i64:
      return "i64";
    case ArgType::u64:
      return "u64";
    case ArgType::f32:
      return "f32";
    case ArgType::f64:
      return "f64";
    case ArgType::boolean:
      return "bool";
  }
  return "?";
}

// The element code of a task's pointee C type ("float" -> "f32"); the input when unknown.
std::string pointee_code(const std::string& c) {
  static const std::map<std::string, std::string> names = {
      {"float", "f32"},
      {"double", "f64"},
      {"__half", "f16"},
      {"half", "f16"},
      {"_Float16", "f16"},
      {"__hip_bfloat16", "bf16"},
      {"hip_bfloat16", "bf16"},
      {"bfloat16", "bf16"},
      {"__nv_bfloat16", "bf16"},
      {"int", "i32"},
      {"int32_t", "i32"},
      {"unsigned", "u32"},
      {"unsigned int", "u32"},
      {"uint32_t", "u32"},
      {"long", "i64"},
      {"long long", "i64"},
      {"int64_t", "i64"},
      {"uint64_t", "u64"},
      {"unsigned long", "u64"},
      {"unsigned long long", "u64"},
      {"int8_t", "i8"},
      {"signed char", "i8"},
      {"char", "i8"},
      {"uint8_t", "u8"},
      {"unsigned char", "u8"},
      {"bool", "bool"},
  };
  auto it = names.find(c);
  return it == names.end() ? c : it->second;
}

int int_width(const std::string& code) {
  if (code == "bool") return 1;
  if (code == "i8" || code == "u8") return 8;
  if (code == "i16" || code == "u16") return 16;
  if (code == "i32" || code == "u32") return 32;
  if (code == "i64" || code == "u64") return 64;
  return 0;
}
bool is_float(const std::string& c) {
  return c == "f32" || c == "f64" || c == "f16" || c == "bf16";
}

// The scalar element of a vector code ("f32x4" -> "f32").
std::string element_of(const std::string& code) {
  size_t x = code.find('x');
  return x == std::string::npos ? code : code.substr(0, x);
}

std::string task_spelling(const KernelArg& a) {
  if (a.type == ArgType::ptr) return (a.pointee.empty() ? std::string("void") : a.pointee) + "*";
  return arg_type_code(a.type);
}

}  // namespace

std::vector<ParamType> parse_signature(const std::string& text) {
  std::vector<ParamType> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    std::string one = text.substr(at, comma - at);
    at = comma + 1;
    if (one.empty()) continue;
    ParamType p;
    if (one[0] == '*') {
      p.pointer = true;
      one = one.substr(1);
      if (one.rfind("const ", 0) == 0) {
        p.is_const = true;
        one = one.substr(6);
      }
    }
    if (one == "i64ll" || one == "u64ll") {
      p.long_long = true;
      one.resize(3);
    }
    p.code = one;
    out.push_back(p);
  }
  return out;
}

std::string c_spelling(const ParamType& p) {
  static const std::map<std::string, std::string> names = {
      {"bool", "bool"},           {"i8", "signed char"},     {"u8", "unsigned char"},
      {"i16", "short"},           {"u16", "unsigned short"}, {"i32", "int"},
      {"u32", "unsigned int"},    {"i64", "long"},           {"u64", "unsigned long"},
      {"f32", "float"},           {"f64", "double"},         {"f16", "__half"},
      {"bf16", "__hip_bfloat16"}, {"void", "void"},          {"f32x2", "float2"},
      {"f32x4", "float4"},        {"f64x2", "double2"},      {"i32x2", "int2"},
      {"i32x4", "int4"},          {"u8x4", "uchar4"},        {"i8x4", "char4"},
      {"f16x2", "__half2"},       {"ptr", "void*"},          {"&", "a reference"},
  };
  auto it = names.find(p.code);
  std::string base = it == names.end() ? "an unsupported type" : it->second;
  if (p.long_long) base = p.code == "u64" ? "unsigned long long" : "long long";
  if (!p.pointer) return base;
  return (p.is_const ? "const " : "") + base + "*";
}

std::string check_signature(const std::vector<ParamType>& params,
                            const std::vector<KernelArg>& declared,
                            const std::vector<std::string>& names, const std::string& entry) {
  if (params.size() != declared.size()) {
    return "signature mismatch: kernel '" + entry + "' takes " + std::to_string(params.size()) +
           " parameter" + (params.size() == 1 ? "" : "s") + ", the task passes " +
           std::to_string(declared.size());
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamType& p = params[i];
    const KernelArg& a = declared[i];
    std::string where =
        "parameter " + std::to_string(i + 1) +
        (i < names.size() && !names[i].empty() ? " '" + names[i] + "'" : std::string());
    std::string bad =
        "signature mismatch: " + where + " is " + c_spelling(p) + ", the task passes ";
    if (a.type == ArgType::ptr) {
      if (!p.pointer) return bad + "a " + task_spelling(a) + " buffer";
      std::string want = pointee_code(a.pointee);
      if (a.pointee.empty() || p.code == "void") continue;
      if (p.code == want || element_of(p.code) == want) continue;
      return bad + task_spelling(a);
    }
    if (p.pointer) return bad + "a scalar " + arg_type_code(a.type);
    std::string have = arg_type_code(a.type);
    if (is_float(have)) {
      if (!is_float(p.code)) return bad + have;
      continue;  // converted to the kernel's floating type
    }
    // Integers: the kernel's type must hold every value of the task's type.
    int kw = int_width(p.code), tw = int_width(have);
    if (kw == 0) return bad + have;
    if (kw < tw) return bad + have;  // signedness may differ: sizes are passed as size_t often
  }
  return {};
}

void convert_scalar(const KernelArg& a, const ParamType& p, uint64_t* slot) {
  *slot = 0;
  bool src_float = a.type == ArgType::f32 || a.type == ArgType::f64;
  bool src_unsigned = a.type == ArgType::u8 || a.type == ArgType::u32 || a.type == ArgType::u64;
  double f = src_float ? a.scalar.f : (src_unsigned ? double(a.scalar.u) : double(a.scalar.i));
  int64_t i = src_float ? int64_t(a.scalar.f) : a.scalar.i;
  auto put = [&](auto v) { std::memcpy(slot, &v, sizeof(v)); };
  const std::string& c = p.code;
  if (c == "f32")
    put(float(f));
  else if (c == "f64")
    put(f);
  else if (c == "f16")
    put(static_cast<_Float16>(float(f)));
  else if (c == "bf16") {
    float v = float(f);
    uint32_t u;
    std::memcpy(&u, &v, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    put(uint16_t(u >> 16));
  } else if (c == "bool")
    put(bool(i != 0));
  else if (c == "i8")
    put(int8_t(i));
  else if (c == "u8")
    put(uint8_t(i));
  else if (c == "i16")
    put(int16_t(i));
  else if (c == "u16")
    put(uint16_t(i));
  else if (c == "i32")
    put(int32_t(i));
  else if (c == "u32")
    put(uint32_t(i));
  else
    put(i);
}

}  // namespace kta::engine::cpu
