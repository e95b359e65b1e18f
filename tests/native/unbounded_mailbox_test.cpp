#include <gtest/gtest.h>

#include <string>

#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

Envelope env(std::string text) {
  return Envelope{Message(std::move(text)), {}, {}, 0};
}

std::string text_of(const std::optional<Envelope>& e) {
  return e->message.get<std::string>();
}

// prepend puts envelopes back at the front in their original order.
TEST(UnboundedMailbox, PrependUserKeepsOrderAtTheFront) {
  UnboundedMailbox box;
  box.enqueue(env("c"));
  std::vector<Envelope> stashed;
  stashed.push_back(env("a"));
  stashed.push_back(env("b"));
  box.prepend(std::move(stashed));
  EXPECT_EQ(box.size(), 3u);
  EXPECT_EQ(text_of(box.dequeue()), "a");
  EXPECT_EQ(text_of(box.dequeue()), "b");
  EXPECT_EQ(text_of(box.dequeue()), "c");
}

// A mailbox can be claimed by one owner only: sharing is detectable.
TEST(UnboundedMailbox, SecondOwnerCannotClaim) {
  UnboundedMailbox box;
  int a = 0, b = 0;
  EXPECT_TRUE(box.try_claim(&a));
  EXPECT_TRUE(box.try_claim(&a));
  EXPECT_FALSE(box.try_claim(&b));
  box.release(&a);
  EXPECT_TRUE(box.try_claim(&b));
}

// describe() reports an unbounded FIFO without capacity or policy.
TEST(UnboundedMailbox, DescribesItselfAsUnbounded) {
  UnboundedMailbox box;
  auto d = box.describe();
  EXPECT_EQ(d.kind, "unbounded");
  EXPECT_FALSE(d.capacity.has_value());
  EXPECT_FALSE(d.overflow.has_value());
}

}  // namespace
}  // namespace mailroom
