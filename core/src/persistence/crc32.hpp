// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum that
// frames every journal record. Incremental: pass the previous result to
// continue a checksum over several pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mailroom {

std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t previous = 0) noexcept;

inline std::uint32_t crc32(std::string_view bytes, std::uint32_t previous = 0) noexcept {
  return crc32(bytes.data(), bytes.size(), previous);
}

}  // namespace mailroom
