#include "engine/device/hip/rtc/kernel_signature.h"

#include <cstring>
#include <map>

namespace kta::engine::hip {
namespace {

constexpr int kMaxArityChecked = 32;

uint16_t pointee_code(const std::string& c) {
  static const std::map<std::string, uint16_t> names = {
      {"float", kF32},
      {"double", kF64},
      {"__half", kF16},
      {"half", kF16},
      {"_Float16", kF16},
      {"__hip_bfloat16", kBF16},
      {"hip_bfloat16", kBF16},
      {"bfloat16", kBF16},
      {"__nv_bfloat16", kBF16},
      {"int", kI32},
      {"int32_t", kI32},
      {"unsigned", kU32},
      {"unsigned int", kU32},
      {"uint32_t", kU32},
      {"long", kI64},
      {"long long", kI64},
      {"int64_t", kI64},
      {"uint64_t", kU64},
      {"unsigned long", kU64},
      {"unsigned long long", kU64},
      {"int8_t", kI8},
      {"signed char", kI8},
      {"char", kI8},
      {"uint8_t", kU8},
      {"unsigned char", kU8},
      {"bool", kBool},
      {"int16_t", kI16},
      {"uint16_t", kU16},
      {"short", kI16},
  };
  auto it = names.find(c);
  return it == names.end() ? uint16_t(kUnknown) : it->second;
}

// The 64-bit integer codes without their spelling: long long is long.
uint16_t canonical(uint16_t code) {
  return code == kI64LL ? uint16_t(kI64) : code == kU64LL ? uint16_t(kU64) : code;
}

// The scalar element of a vector code (float4 -> float).
uint16_t element_of(uint16_t code) {
  switch (canonical(code)) {
    case kF32x2:
    case kF32x4:
      return kF32;
    case kF64x2:
      return kF64;
    case kI32x2:
    case kI32x4:
      return kI32;
    case kU8x4:
      return kU8;
    case kI8x4:
      return kI8;
    case kF16x2:
      return kF16;
    case kBF16x2:
      return kBF16;
    default:
      return canonical(code);
  }
}

int int_width(uint16_t code) {
  switch (canonical(code)) {
    case kBool:
      return 1;
    case kI8:
    case kU8:
      return 8;
    case kI16:
    case kU16:
      return 16;
    case kI32:
    case kU32:
      return 32;
    case kI64:
    case kU64:
      return 64;
    default:
      return 0;
  }
}
bool is_float(uint16_t code) {
  return code == kF32 || code == kF64 || code == kF16 || code == kBF16;
}
bool is_float(ArgType t) { return t == ArgType::f32 || t == ArgType::f64; }

uint16_t arg_code(ArgType t) {
  switch (t) {
    case ArgType::ptr:
      return kPointer;
    case ArgType::i8:
      return kI8;
    case ArgType::u8:
      return kU8;
    case ArgType::i32:
      return kI32;
    case ArgType::u32:
      return kU32;
    case ArgType::i64:
      return kI64;
    case ArgType::u64:
      return kU64;
    case ArgType::f32:
      return kF32;
    case ArgType::f64:
      return kF64;
    case ArgType::boolean:
      return kBool;
  }
  return kUnknown;
}

std::string task_spelling(const KernelArg& a) {
  if (a.type == ArgType::ptr)
    return "a " + (a.pointee.empty() ? std::string("void") : a.pointee) + "* buffer";
  static const char* names[] = {"ptr", "i8",  "u8",  "i32", "u32",
                                "i64", "u64", "f32", "f64", "bool"};
  return names[int(a.type)];
}

// Every code a kernel parameter may have, for the generated negative checks.
std::vector<uint16_t> all_codes() {
  std::vector<uint16_t> out;
  for (uint16_t c = 0; c < kCodeCount; ++c) {
    if (c != kVoid) out.push_back(c);
    out.push_back(uint16_t(kPointer | c));
    out.push_back(uint16_t(kPointer | kConst | c));
  }
  return out;
}

constexpr const char* kTraits = R"KTA(
namespace kta_sig {
template <class T> struct code { static constexpr unsigned short v = 0; };
#define KTA_SIG_CODE(T, n) template <> struct code<T> { static constexpr unsigned short v = n; };
KTA_SIG_CODE(bool, 1) KTA_SIG_CODE(signed char, 2) KTA_SIG_CODE(char, 2) KTA_SIG_CODE(unsigned char, 3)
KTA_SIG_CODE(short, 4) KTA_SIG_CODE(unsigned short, 5) KTA_SIG_CODE(int, 6) KTA_SIG_CODE(unsigned int, 7)
KTA_SIG_CODE(long, 8) KTA_SIG_CODE(unsigned long, 9) KTA_SIG_CODE(long long, 25)
KTA_SIG_CODE(unsigned long long, 26) KTA_SIG_CODE(float, 10) KTA_SIG_CODE(double, 11)
KTA_SIG_CODE(void, 14)
KTA_SIG_CODE(float2, 15) KTA_SIG_CODE(float4, 16) KTA_SIG_CODE(double2, 17) KTA_SIG_CODE(int2, 18)
KTA_SIG_CODE(int4, 19) KTA_SIG_CODE(uchar4, 20) KTA_SIG_CODE(char4, 21)
#if defined(__CUDA_FP16_H__) || defined(HIP_INCLUDE_HIP_HIP_FP16_H) || defined(__HIP_PLATFORM_AMD__)
KTA_SIG_CODE(__half, 12) KTA_SIG_CODE(__half2, 22)
#endif
#if defined(__CUDA_BF16_H__) || defined(HIP_INCLUDE_HIP_HIP_BF16_H)
KTA_SIG_CODE(__hip_bfloat16, 13) KTA_SIG_CODE(__hip_bfloat162, 23)
#endif
#undef KTA_SIG_CODE
template <class T> struct code<const T> { static constexpr unsigned short v = code<T>::v; };
template <class T> struct code<volatile T> { static constexpr unsigned short v = code<T>::v; };
template <class T> struct code<T*> {
  static constexpr unsigned short v = 0x100 | (code<T>::v >= 0x100 ? 0 : code<T>::v);
};
template <class T> struct code<const T*> {
  static constexpr unsigned short v = 0x300 | (code<T>::v >= 0x100 ? 0 : code<T>::v);
};
template <class T> struct code<T&> { static constexpr unsigned short v = 24; };
template <class F> struct fn { static constexpr int arity = -1; };
template <class... A> struct fn<void (*)(A...)> { static constexpr int arity = sizeof...(A); };
template <int I, class... A> struct nth { using type = void; };
template <class H, class... R> struct nth<0, H, R...> { using type = H; };
template <int I, class H, class... R> struct nth<I, H, R...> { using type = typename nth<I - 1, R...>::type; };
template <int I, class F> struct arg { using type = void; };
template <int I, class... A> struct arg<I, void (*)(A...)> { using type = typename nth<I, A...>::type; };
template <int I, class F> constexpr unsigned short arg_code = code<typename arg<I, F>::type>::v;
}  // namespace kta_sig
)KTA";

}  // namespace

std::string code_spelling(uint16_t code) {
  static const char* names[] = {"an unsupported type",
                                "bool",
                                "signed char",
                                "unsigned char",
                                "short",
                                "unsigned short",
                                "int",
                                "unsigned int",
                                "long",
                                "unsigned long",
                                "float",
                                "double",
                                "__half",
                                "__hip_bfloat16",
                                "void",
                                "float2",
                                "float4",
                                "double2",
                                "int2",
                                "int4",
                                "uchar4",
                                "char4",
                                "__half2",
                                "__hip_bfloat162",
                                "a reference",
                                "long long",
                                "unsigned long long"};
  uint16_t base = code & 0xff;
  std::string s = base < kCodeCount ? names[base] : names[0];
  if (!(code & kPointer)) return s;
  if (base == kUnknown) s = "an unsupported type";
  return (code & kConst ? "const " : "") + s + "*";
}

bool compatible(uint16_t code, const KernelArg& a) {
  bool pointer = code & kPointer;
  uint16_t base = code & 0xff;
  if (a.type == ArgType::ptr) {
    if (!pointer) return false;
    uint16_t want = pointee_code(a.pointee);
    if (a.pointee.empty() || want == kUnknown || base == kVoid) return true;
    return base == want || element_of(base) == want;
  }
  if (pointer) return false;
  if (is_float(a.type)) return is_float(base);
  int kw = int_width(base), tw = int_width(arg_code(a.type));
  return kw != 0 && kw >= tw;  // the kernel's integer holds every value of the task's type
}

size_t code_size(uint16_t code) {
  if (code & kPointer) return sizeof(void*);
  switch (canonical(code)) {
    case kBool:
    case kI8:
    case kU8:
      return 1;
    case kI16:
    case kU16:
    case kF16:
    case kBF16:
      return 2;
    case kI32:
    case kU32:
    case kF32:
      return 4;
    case kI64:
    case kU64:
    case kF64:
      return 8;
    default:
      return 0;
  }
}

std::string signature_check_source(const std::string& entry,
                                   const std::vector<KernelArg>& declared) {
  std::string s = kTraits;
  s += "using kta_entry_type__ = decltype(&" + entry + ");\n";
  std::string arity = "kta_sig::fn<kta_entry_type__>::arity";
  std::string n = std::to_string(declared.size());
  s += "static_assert(" + arity + " >= 0, \"signature mismatch: '" + entry +
       "' is not a kernel function\");\n";
  for (int k = 0; k <= kMaxArityChecked; ++k) {
    if (size_t(k) == declared.size()) continue;
    s += "static_assert(" + arity + " != " + std::to_string(k) +
         ", \"signature mismatch: kernel '" + entry + "' takes " + std::to_string(k) +
         " parameter" + (k == 1 ? "" : "s") + ", the task passes " + n + "\");\n";
  }
  const std::vector<uint16_t> codes = all_codes();
  for (size_t i = 0; i < declared.size(); ++i) {
    std::string c = "kta_sig::arg_code<" + std::to_string(i) + ", kta_entry_type__>";
    std::string where =
        "signature mismatch: parameter " + std::to_string(i + 1) + " of '" + entry + "' is ";
    for (uint16_t k : codes) {
      if (compatible(k, declared[i])) continue;
      s += "static_assert(" + arity + " != " + n + " || " + c + " != " + std::to_string(k) +
           ", \"" + where + code_spelling(k) + ", the task passes " + task_spelling(declared[i]) +
           "\");\n";
    }
  }
  s += std::string("extern \"C\" __device__ const unsigned short ") + kSignatureSymbol +
       "[] = {(unsigned short)" + arity;
  for (size_t i = 0; i < declared.size(); ++i)
    s += ", kta_sig::arg_code<" + std::to_string(i) + ", kta_entry_type__>";
  s += "};\n";
  return s;
}

void convert_scalar(const KernelArg& a, uint16_t code, uint64_t* slot) {
  *slot = 0;
  bool src_float = is_float(a.type);
  bool src_unsigned = a.type == ArgType::u8 || a.type == ArgType::u32 || a.type == ArgType::u64;
  double f = src_float ? a.scalar.f : (src_unsigned ? double(a.scalar.u) : double(a.scalar.i));
  int64_t i = src_float ? int64_t(a.scalar.f) : a.scalar.i;
  auto put = [&](auto v) { std::memcpy(slot, &v, sizeof(v)); };
  switch (code) {
    case kF32:
      put(float(f));
      break;
    case kF64:
      put(f);
      break;
    case kF16:
      put(static_cast<_Float16>(float(f)));
      break;
    case kBF16: {
      float v = float(f);
      uint32_t u;
      std::memcpy(&u, &v, 4);
      u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
      put(uint16_t(u >> 16));
      break;
    }
    case kBool:
      put(bool(i != 0));
      break;
    case kI8:
      put(int8_t(i));
      break;
    case kU8:
      put(uint8_t(i));
      break;
    case kI16:
      put(int16_t(i));
      break;
    case kU16:
      put(uint16_t(i));
      break;
    case kI32:
      put(int32_t(i));
      break;
    case kU32:
      put(uint32_t(i));
      break;
    default:
      put(i);
      break;
  }
}

}  // namespace kta::engine::hip
