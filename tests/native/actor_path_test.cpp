#include <gtest/gtest.h>

#include <string>

#include "mailroom/actor_path.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {
namespace {

// to_local accepts local and full paths of this system and nothing else.
TEST(ActorPath, ToLocalNormalisesPathsOfThisSystemOnly) {
  EXPECT_EQ(ActorPath::to_local("/user/a", "shop"), "/user/a");
  EXPECT_EQ(ActorPath::to_local("/user/a/", "shop"), "/user/a");
  EXPECT_EQ(ActorPath::to_local("mailroom://shop/user/a/b", "shop"), "/user/a/b");
  EXPECT_EQ(ActorPath::to_local("other://shop/user/a", "shop"), "/user/a");
  EXPECT_EQ(ActorPath::to_local("mailroom://shop", "shop"), "/");
  EXPECT_EQ(ActorPath::to_local("mailroom://else/user/a", "shop"), "");
  EXPECT_EQ(ActorPath::to_local("user/a", "shop"), "");
  EXPECT_EQ(ActorPath::to_local("", "shop"), "");
  EXPECT_EQ(ActorPath::to_local("/user//a", "shop"), "");
}

// full() prints the scheme, the system and the local path.
TEST(ActorPath, FullPrintsSchemeSystemAndLocalPath) {
  EXPECT_EQ(ActorPath::full("shop", "/user/a"), "mailroom://shop/user/a");
}

// elements() splits a local path into names.
TEST(ActorPath, ElementsSplitALocalPath) {
  EXPECT_EQ(ActorPath::elements("/user/a/b"), (std::vector<std::string_view>{"user", "a", "b"}));
  EXPECT_TRUE(ActorPath::elements("/").empty());
}

// Name rules: non-empty, <= 255 chars, no '/', no whitespace, no leading '$'.
TEST(ActorPath, NameRules) {
  EXPECT_TRUE(ActorPath::is_valid_name("a-b_c.d$e"));
  EXPECT_TRUE(ActorPath::is_valid_name(std::string(255, 'x')));
  for (std::string bad : {std::string(), std::string("a/b"), std::string("a b"),
                          std::string("a\nb"), std::string("$a"), std::string(256, 'x')}) {
    EXPECT_FALSE(ActorPath::is_valid_name(bad)) << bad;
  }
  EXPECT_THROW(ActorPath::validate_name("$x", "/user"), InvalidActorNameError);
  EXPECT_TRUE(ActorPath::is_valid_system_name("my-system_2"));
  EXPECT_FALSE(ActorPath::is_valid_system_name("my.system"));
}

}  // namespace
}  // namespace mailroom
