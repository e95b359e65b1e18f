#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeindex>
#include <utility>

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

// Small trivially copyable values travel inside the Message; strings and other
// non-trivial values are boxed once. Either way the value reads back unchanged.
TEST(Message, SmallTrivialValuesTravelInlineOthersAreBoxed) {
  static_assert(Message::stores_inline<int>);
  static_assert(Message::stores_inline<double>);
  static_assert(Message::stores_inline<Order>);
  static_assert(!Message::stores_inline<std::string>);
  struct Wide {
    std::uint64_t a, b;
  };
  static_assert(!Message::stores_inline<Wide>);
  Message small(7);
  Message wide(Wide{1, 2});
  EXPECT_EQ(small.get<int>(), 7);
  EXPECT_EQ(wide.get<Wide>().b, 2u);
  EXPECT_FALSE(small.is<Wide>());
  EXPECT_FALSE(wide.is<int>());
  EXPECT_EQ(small.type(), std::type_index(typeid(int)));
  EXPECT_EQ(small.type_name(), "int");
}

// An inline value's identity is the Message holding it: the message a handler
// was given is the same send, a copy of it is another.
TEST(Message, InlineIdentityIsTheMessageObject) {
  Message a(5);
  const Message& same = a;
  Message copy = a;
  EXPECT_EQ(a.identity(), same.identity());
  EXPECT_NE(a.identity(), copy.identity());
  EXPECT_EQ(copy.get<int>(), 5);
  EXPECT_EQ(Message().identity(), nullptr);
}

// Moving hands the value over and leaves the source empty; copies and
// assignments keep both sides valid, self-assignment included.
TEST(Message, MovesLeaveTheSourceEmptyCopiesShare) {
  Message a(std::string("payload"));
  const void* id = a.identity();
  Message b = std::move(a);
  EXPECT_FALSE(a.has_value());  // NOLINT(bugprone-use-after-move): the contract
  EXPECT_EQ(b.identity(), id);
  Message c;
  c = b;
  EXPECT_EQ(c.identity(), id);
  c = c;
  EXPECT_EQ(c.get<std::string>(), "payload");
  c = Message(3);
  EXPECT_EQ(c.get<int>(), 3);
  EXPECT_EQ(b.get<std::string>(), "payload");
}

struct Counted {
  explicit Counted(int* alive) : alive(alive) { ++*alive; }
  Counted(const Counted& o) : alive(o.alive) { ++*alive; }
  ~Counted() { --*alive; }
  int* alive;
};

// A boxed value is destroyed exactly once, when its last copy goes.
TEST(Message, BoxedValueDiesWithItsLastCopy) {
  int alive = 0;
  {
    Message a{Counted(&alive)};
    EXPECT_EQ(alive, 1);
    {
      Message copy = a;
      Message moved = std::move(copy);
      EXPECT_EQ(alive, 1);
    }
    EXPECT_EQ(alive, 1);
  }
  EXPECT_EQ(alive, 0);
}

struct ThrowsOnCopy {
  ThrowsOnCopy() = default;
  ThrowsOnCopy(const ThrowsOnCopy&) { throw std::runtime_error("no copy"); }
};

// A value whose construction throws leaves nothing behind and no Message.
TEST(Message, ThrowingConstructionLeavesNothing) {
  const ThrowsOnCopy value;
  EXPECT_THROW(Message m(value), std::runtime_error);
}

// A handle whose copies are counted outside it, like the wasm layer's JS value
// slot: live owners per handle number.
struct CountedHandle {
  explicit CountedHandle(int* owners) noexcept : owners(owners) { ++*owners; }
  CountedHandle(const CountedHandle& o) noexcept : owners(o.owners) { ++*owners; }
  CountedHandle(CountedHandle&& o) noexcept : owners(std::exchange(o.owners, nullptr)) {}
  CountedHandle& operator=(const CountedHandle&) = delete;
  ~CountedHandle() {
    if (owners != nullptr) --*owners;
  }
  int* owners;
};

}  // namespace

template <>
struct TriviallyRelocatable<CountedHandle> : std::true_type {};

namespace {

// A TriviallyRelocatable handle travels inline (no box), and the Message runs
// its copy constructor per copy and its destructor once per copy; moving a
// Message (queues do it per message) runs neither.
TEST(Message, RelocatableHandleTravelsInlineWithItsOwnCopies) {
  static_assert(Message::stores_inline<CountedHandle>);
  static_assert(!std::is_trivially_copyable_v<CountedHandle>);
  int owners = 0;
  {
    Message a{CountedHandle(&owners)};
    EXPECT_EQ(owners, 1);
    EXPECT_EQ(a.get<CountedHandle>().owners, &owners);
    {
      Message copy = a;
      EXPECT_EQ(owners, 2);
      Message moved = std::move(copy);
      EXPECT_EQ(owners, 2);
      EXPECT_FALSE(copy.has_value());  // NOLINT(bugprone-use-after-move): the contract
      Message assigned;
      assigned = moved;
      EXPECT_EQ(owners, 3);
      assigned = Message(1);  // the handle copy it held is destroyed
      EXPECT_EQ(owners, 2);
      // Inline: the identity is the Message holding it.
      EXPECT_NE(moved.identity(), a.identity());
    }
    EXPECT_EQ(owners, 1);
    Message b;
    b.swap(a);
    EXPECT_EQ(owners, 1);
    EXPECT_EQ(b.get<CountedHandle>().owners, &owners);
  }
  EXPECT_EQ(owners, 0);
}

}  // namespace
}  // namespace mailroom
