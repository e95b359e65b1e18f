// libFuzzer target: tagged_json::decode never throws or crashes, and whatever
// it accepts encodes and decodes again to the same tag and value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mailroom/tagged_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto decoded = mailroom::tagged_json::decode(text);
  if (decoded.ok != decoded.error.empty()) __builtin_trap();
  if (!decoded.ok) return 0;
  const auto again =
      mailroom::tagged_json::decode(mailroom::tagged_json::encode(decoded.tag, decoded.value));
  if (!again.ok || again.tag != decoded.tag) __builtin_trap();
  // NaN cannot come out of JSON text, so values compare equal after a round trip.
  if (again.value != decoded.value) __builtin_trap();
  return 0;
}
