// The message table: texts, severities and names of every diagnostic.
#include "lang/messages.h"

#include "lang/diagnostics.h"

namespace kta::lang {
namespace {

struct Entry {
  std::string_view name;
  Severity severity;
  std::string_view text;
};

#define KTA_LANG_MSG_ENTRY(id, sev, text) {#id, Severity::sev, text},
constexpr Entry kMessages[] = {KTA_LANG_MESSAGES(KTA_LANG_MSG_ENTRY)};
#undef KTA_LANG_MSG_ENTRY

}  // namespace

std::string_view message_format(Msg id) { return kMessages[static_cast<size_t>(id)].text; }
Severity message_severity(Msg id) { return kMessages[static_cast<size_t>(id)].severity; }
std::string_view message_name(Msg id) { return kMessages[static_cast<size_t>(id)].name; }

}  // namespace kta::lang
