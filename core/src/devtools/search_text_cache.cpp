#include "search_text_cache.hpp"

#include <cctype>
#include <utility>

#include <nlohmann/json.hpp>

#include "devtools_json.hpp"
#include "mailroom/dead_letter_entry.hpp"

namespace mailroom::devtools {

std::string lower_ascii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string search_text(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs) {
  return lower_ascii(
      entry.recipient_path + ' ' +
      payload_json(entry, codecs).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

const std::string& SearchTextCache::text(std::uint64_t list_epoch, const DeadLetterEntry& entry,
                                         const PayloadCodecRegistry& codecs) {
  if (list_epoch != list_epoch_) {
    texts_.clear();
    list_epoch_ = list_epoch;
  }
  auto found = texts_.find(entry.position);
  if (found != texts_.end()) return found->second;
  return texts_.emplace(entry.position, search_text(entry, codecs)).first->second;
}

void SearchTextCache::bound(std::size_t held) {
  if (texts_.size() > 2 * held + kSlack) texts_.clear();
}

}  // namespace mailroom::devtools
