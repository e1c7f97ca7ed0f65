// Plan keys hash with lang's ContentHasher (lang/hash.h, kta's one home for hashing). This header
// only names it in kta::engine for the files that still include it from here.
#pragma once

#include "lang/hash.h"

namespace kta::engine {

using lang::ContentHasher;
using lang::hash_file;

}  // namespace kta::engine
