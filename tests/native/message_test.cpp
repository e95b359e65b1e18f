#include <gtest/gtest.h>

#include <string>

#include "mailroom/message.hpp"

namespace mailroom {
namespace {

struct Order {
  int id;
};

// A message remembers its type and hands the value back only as that type.
TEST(Message, HoldsAnyValueAndChecksItsType) {
  Message m(Order{42});
  EXPECT_TRUE(m.is<Order>());
  EXPECT_FALSE(m.is<int>());
  EXPECT_EQ(m.get<Order>().id, 42);
  EXPECT_EQ(m.get_if<int>(), nullptr);
  EXPECT_THROW(m.get<int>(), std::bad_cast);
  EXPECT_NE(m.type_name().find("Order"), std::string::npos);
}

// Copies share identity; an equal value sent separately does not.
TEST(Message, IdentityIsTheSendNotTheValue) {
  Message a(std::string("x"));
  Message copy = a;
  Message b(std::string("x"));
  EXPECT_EQ(a.identity(), copy.identity());
  EXPECT_NE(a.identity(), b.identity());
}

}  // namespace
}  // namespace mailroom
