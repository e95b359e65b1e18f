// mailroom/version.hpp: generated from the CMake project version, and the
// macros and version() agree with each other.
#include <gtest/gtest.h>

#include <string>

#include "mailroom/version.hpp"

namespace mailroom {
namespace {

TEST(Version, StringIsMajorMinorPatchFromTheMacros) {
  const std::string expected = std::to_string(MAILROOM_VERSION_MAJOR) + "." +
                               std::to_string(MAILROOM_VERSION_MINOR) + "." +
                               std::to_string(MAILROOM_VERSION_PATCH);
  EXPECT_EQ(std::string(version()), expected);
  EXPECT_EQ(std::string(MAILROOM_VERSION_STRING), expected);
}

TEST(Version, NumberOrdersVersions) {
  static_assert(MAILROOM_VERSION == MAILROOM_VERSION_MAJOR * 10000 + MAILROOM_VERSION_MINOR * 100 +
                                        MAILROOM_VERSION_PATCH);
  static_assert(version().size() >= 5);  // usable in constant expressions
  EXPECT_EQ(MAILROOM_VERSION_MAJOR, 0);  // bump together with package.json's "version"
}

}  // namespace
}  // namespace mailroom
