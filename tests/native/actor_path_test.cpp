#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// malformation() is the one malformed-target rule: the panel shows it from deadLetters.preview:
// spaces around the path, an empty segment, a name with whitespace, a leading '$' or too long;
// relative, empty and well-formed paths are not malformed ("" : left to the resolution).
TEST(ActorPath, MalformationNamesPathsThatCannotNameAnActor) {
  EXPECT_EQ(ActorPath::malformation(" /user/a"), "spaces before or after it");
  EXPECT_EQ(ActorPath::malformation("/user/a "), "spaces before or after it");
  EXPECT_EQ(ActorPath::malformation("\tmailroom://shop/user/a"), "spaces before or after it");
  EXPECT_EQ(ActorPath::malformation("/user/a\n"), "spaces before or after it");
  EXPECT_EQ(ActorPath::malformation("/user//a"), "an empty segment (//)");
  EXPECT_EQ(ActorPath::malformation("mailroom://shop/user//a"), "an empty segment (//)");
  EXPECT_EQ(ActorPath::malformation("/user/a b"), "whitespace in \"a b\"");
  EXPECT_EQ(ActorPath::malformation("/user/$a"), "\"$a\" starts with '$' (reserved)");
  EXPECT_EQ(ActorPath::malformation("/user/" + std::string(256, 'x')),
            "a name longer than 255 characters");
  for (const char* fine : {"/user/a", "/user/a/", "mailroom://shop/user/a/b", "other://shop/user/a",
                           "/user/../a", "user/a", "", "/", "mailroom://shop"}) {
    EXPECT_EQ(ActorPath::malformation(fine), "") << fine;
  }
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

// Name rules: non-empty, <= 255 chars, no '/', no whitespace, no leading '$',
// not "." or ".." (a selection reads those as "here" and "the parent").
TEST(ActorPath, NameRules) {
  EXPECT_TRUE(ActorPath::is_valid_name("a-b_c.d$e"));
  EXPECT_TRUE(ActorPath::is_valid_name(std::string(255, 'x')));
  for (std::string bad : {std::string(), std::string("a/b"), std::string("a b"),
                          std::string("a\nb"), std::string("$a"), std::string(256, 'x')}) {
    EXPECT_FALSE(ActorPath::is_valid_name(bad)) << bad;
  }
  EXPECT_THROW(ActorPath::validate_name("$x", "/user"), InvalidActorNameError);
  for (const char* dots : {".", ".."}) {
    EXPECT_FALSE(ActorPath::is_valid_name(dots)) << dots;
    try {
      ActorPath::validate_name(dots, "/user");
      ADD_FAILURE() << "'" << dots << "' was accepted";
    } catch (const InvalidActorNameError& e) {
      EXPECT_NE(std::string(e.what()).find("reserved for selections"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(ActorPath::is_valid_name("..."));
  EXPECT_TRUE(ActorPath::is_valid_name(".hidden"));
  EXPECT_TRUE(ActorPath::is_valid_system_name("my-system_2"));
  EXPECT_FALSE(ActorPath::is_valid_system_name("my.system"));
}

// The case table the panel's mirror (devtools-ui/src/paths.ts) is tested
// against too (tests/ui/paths.test.ts).
const nlohmann::json& path_cases() {
  static const nlohmann::json parsed = nlohmann::json::parse(
#include "path_cases.inc"
  );
  return parsed;
}

std::string str(const nlohmann::json& value) {
  return value.get<std::string>();
}

TEST(ActorPathParity, EveryCaseOfTheSharedTable) {
  const auto& t = path_cases();
  std::size_t checked = 0;
  for (const auto& c : t.at("to_local")) {
    const std::string got = c.contains("system")
                                ? ActorPath::to_local(str(c["path"]), str(c["system"]))
                                : ActorPath::to_local(str(c["path"]));
    EXPECT_EQ(got, str(c["local"])) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("system_of")) {
    EXPECT_EQ(ActorPath::system_of(str(c["path"])), str(c["system"])) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("child")) {
    EXPECT_EQ(ActorPath::child(str(c["parent"]), str(c["name"])), str(c["path"])) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("parent_of")) {
    EXPECT_EQ(ActorPath::parent_of(str(c["path"])), str(c["parent"])) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("name_of")) {
    EXPECT_EQ(ActorPath::name_of(str(c["path"])), str(c["name"])) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("elements")) {
    // elements() answers views into its argument: keep the path alive (a
    // temporary in the range-for would dangle before C++23).
    const std::string path = str(c["path"]);
    std::vector<std::string> got;
    for (auto e : ActorPath::elements(path)) got.emplace_back(e);
    EXPECT_EQ(got, c["elements"].get<std::vector<std::string>>()) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("in_subtree")) {
    EXPECT_EQ(ActorPath::in_subtree(str(c["path"]), str(c["root"])), c["in"].get<bool>())
        << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("is_user_actor")) {
    EXPECT_EQ(ActorPath::is_user_actor(str(c["path"])), c["user"].get<bool>()) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("is_valid_name")) {
    EXPECT_EQ(ActorPath::is_valid_name(str(c["name"])), c["valid"].get<bool>()) << c.dump();
    ++checked;
  }
  for (const auto& c : t.at("full")) {
    EXPECT_EQ(ActorPath::full(str(c["system"]), str(c["local"])), str(c["path"])) << c.dump();
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

// A spawned actor's path is its parent's child path (ActorPath::child).
TEST(ActorPath, ChildJoinsOnANameBoundary) {
  EXPECT_EQ(ActorPath::child("/", "user"), "/user");
  EXPECT_EQ(ActorPath::child("/user/a", "b"), "/user/a/b");
  EXPECT_EQ(ActorPath::parent_of(ActorPath::child("/user/a", "b")), "/user/a");
  EXPECT_EQ(ActorPath::name_of(ActorPath::child("/user/a", "b")), "b");
}

// system_of names the system of a full path only, as to_local reads it.
TEST(ActorPath, SystemOfReadsTheSystemOfAFullPath) {
  EXPECT_EQ(ActorPath::system_of("mailroom://shop/user/a"), "shop");
  EXPECT_EQ(ActorPath::system_of("/user/a"), "");
  const std::string_view path = "mailroom://shop/user/a";
  EXPECT_EQ(ActorPath::to_local(path, ActorPath::system_of(path)), "/user/a");
}

// in_subtree matches on a name boundary; root "" is no restriction, as "/".
TEST(ActorPath, InSubtreeMatchesOnANameBoundary) {
  EXPECT_TRUE(ActorPath::in_subtree("/user/orders/a", "/user/orders"));
  EXPECT_FALSE(ActorPath::in_subtree("/user/orders-archive", "/user/orders"));
  EXPECT_TRUE(ActorPath::in_subtree("/user/a", "/"));
  EXPECT_TRUE(ActorPath::in_subtree("/user/a", ""));
  EXPECT_FALSE(ActorPath::in_subtree("", ""));
}

}  // namespace
}  // namespace mailroom
