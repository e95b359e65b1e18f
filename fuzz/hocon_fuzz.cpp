// libFuzzer target: HoconConfig::parse and every getter on any input must
// either succeed or throw ConfigError — never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace {

void probe(const mailroom::HoconConfig& config, std::string_view path) {
  try {
    (void)config.get_string(path);
  } catch (const mailroom::ConfigError&) {
  }
  try {
    (void)config.get_number(path);
  } catch (const mailroom::ConfigError&) {
  }
  try {
    (void)config.get_bool(path);
  } catch (const mailroom::ConfigError&) {
  }
  try {
    (void)config.get_duration_ms(path);
  } catch (const mailroom::ConfigError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto config = mailroom::HoconConfig::parse(text);
    for (const auto& [key, value] : config.root()) {
      probe(config, key);
      (void)value.to_text();
    }
    probe(config, "mailroom.dead-letters.store");
    probe(config, "mailroom.dead-letters.retention");
    probe(config, "a.b.c");
  } catch (const mailroom::ConfigError& e) {
    if (e.line() < 1 || e.column() < 1) __builtin_trap();  // positions are 1-based
  }
  return 0;
}
