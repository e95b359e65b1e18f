// The journal frames' CRC-32 (core/src/persistence/crc32.*, slicing-by-8):
// the standard check value, and the same sums as the plain byte-at-a-time
// algorithm for every length, alignment and split into pieces.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

// A private core header (core/src): the frame format depends on it.
#include "../../core/src/persistence/crc32.hpp"

namespace mailroom {
namespace {

std::uint32_t bitwise_crc32(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

// CRC-32/ISO-HDLC of "123456789" is 0xCBF43926.
TEST(Crc32, MatchesTheStandardCheckValue) {
  const std::string check = "123456789";
  EXPECT_EQ(crc32(check.data(), check.size()), 0xCBF43926u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
}

// Every length 0..300 at every offset 0..7, whole and continued from a split.
TEST(Crc32, AgreesWithTheBitwiseAlgorithmForEveryLengthOffsetAndSplit) {
  std::mt19937 rng(7);
  std::string buffer(320, '\0');
  for (char& c : buffer) c = static_cast<char>(rng());
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t length = 0; length <= 300; ++length) {
      const std::string piece = buffer.substr(offset, length);
      const std::uint32_t expected = bitwise_crc32(piece);
      ASSERT_EQ(crc32(buffer.data() + offset, length), expected) << offset << "+" << length;
      const std::size_t split = length / 3;
      const std::uint32_t first = crc32(buffer.data() + offset, split);
      ASSERT_EQ(crc32(buffer.data() + offset + split, length - split, first), expected);
    }
  }
}

}  // namespace
}  // namespace mailroom
