#include "mailroom/event_stream.hpp"

#include <algorithm>

namespace mailroom {

EventStream::SubscriptionId EventStream::subscribe(std::type_index type, ActorRef subscriber) {
  std::lock_guard lock(mutex_);
  // Checked under the lock: a terminating cell marks itself terminated before
  // it takes this lock to unsubscribe, so either it removes this subscription
  // or this sees it terminated. A stopped (or ghost, or empty) subscriber is
  // never kept: it would receive nothing and keep its cell, and through it
  // the system, alive.
  if (subscriber.is_terminated()) return kNoSubscription;
  const SubscriptionId id = next_id_++;
  subscriptions_.push_back(Subscription{id, type, std::move(subscriber), nullptr});
  return id;
}

EventStream::SubscriptionId EventStream::subscribe(std::type_index type, Handler handler) {
  std::lock_guard lock(mutex_);
  const SubscriptionId id = next_id_++;
  subscriptions_.push_back(Subscription{id, type, ActorRef(), std::move(handler)});
  return id;
}

namespace {
template <class Pred>
std::size_t erase_matching(std::vector<EventStream::Subscription>& subs, Pred pred) {
  const auto before = subs.size();
  subs.erase(std::remove_if(subs.begin(), subs.end(), pred), subs.end());
  return before - subs.size();
}
}  // namespace

std::size_t EventStream::unsubscribe(SubscriptionId id) {
  std::lock_guard lock(mutex_);
  return erase_matching(subscriptions_, [id](const Subscription& s) { return s.id == id; });
}

std::size_t EventStream::unsubscribe(const ActorRef& subscriber) {
  if (!subscriber) return 0;
  std::lock_guard lock(mutex_);
  return erase_matching(subscriptions_,
                        [&](const Subscription& s) { return s.actor == subscriber; });
}

std::size_t EventStream::unsubscribe(const ActorRef& subscriber, std::type_index type) {
  if (!subscriber) return 0;
  std::lock_guard lock(mutex_);
  return erase_matching(subscriptions_, [&](const Subscription& s) {
    return s.actor == subscriber && s.type == type;
  });
}

void EventStream::publish(const Message& message) const {
  // Deliver outside the lock: a handler may subscribe or publish itself.
  std::vector<Subscription> targets;
  {
    std::lock_guard lock(mutex_);
    for (const auto& s : subscriptions_) {
      if (s.type == message.type()) targets.push_back(s);
    }
  }
  for (const auto& s : targets) {
    try {
      if (s.handler) {
        s.handler(message);
      } else {
        s.actor.tell(message);
      }
    } catch (...) {
      // A full subscriber mailbox or a throwing handler never reaches the publisher.
    }
  }
}

std::size_t EventStream::subscriber_count() const {
  std::lock_guard lock(mutex_);
  return subscriptions_.size();
}

}  // namespace mailroom
