// What a deadLetters.list text query searches in a letter of the live queue (its
// recipient path and its payload as JSON, lower case), kept per letter so a
// question encodes each payload once, not once per question (in wasm the
// encoding, dump and lower-casing cost ~13 us a letter: seconds for a rare
// string over 100,000 letters, asked again as letters arrive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace mailroom {
struct DeadLetterEntry;
class PayloadCodecRegistry;
}  // namespace mailroom

namespace mailroom::devtools {

// Keyed by the letter's position in the queue's list, which the queue never
// reuses (a replayed letter that comes back takes a new one) and which names
// one recipient and one payload for as long as the letter is held. So a
// payload object changed after it was sent (a JS object is held by reference)
// is searched as it was when first searched, as its journal record keeps it
// as it was when captured. Bounded by the queue: positions the queue no
// longer holds are dropped once they could outnumber the held ones.
class SearchTextCache {
 public:
  // The lower-cased text to search in `entry` (of the queue named `list_epoch`).
  const std::string& text(std::uint64_t list_epoch, const DeadLetterEntry& entry,
                          const PayloadCodecRegistry& codecs);
  // Before a question over a queue holding `held` letters: forgets every text
  // once more are kept than 2 * held + kSlack (letters evicted, aged out,
  // purged or replayed since), so memory stays within twice the queue's.
  void bound(std::size_t held);
  std::size_t size() const noexcept { return texts_.size(); }

  static constexpr std::size_t kSlack = 1024;

 private:
  std::uint64_t list_epoch_ = 0;
  std::unordered_map<std::uint64_t, std::string> texts_;
};

// The text a letter is searched by: "<recipient> <payload JSON>", lower case.
std::string search_text(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs);
// ASCII lower case, as the query's text is lowered.
std::string lower_ascii(std::string text);

}  // namespace mailroom::devtools
