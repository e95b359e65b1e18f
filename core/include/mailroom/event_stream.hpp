// EventStream: publish/subscribe by message type. Thread-safe. Actor
// subscribers receive events by tell (never on the publisher's stack) and are
// unsubscribed when they terminate (one already terminated is never kept);
// function subscribers run on the
// publisher's thread and must not throw (a throw is swallowed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <typeindex>
#include <vector>

#include "mailroom/actor_ref.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

class EventStream {
 public:
  using SubscriptionId = std::uint64_t;
  using Handler = std::function<void(const Message&)>;

  // Never issued: what subscribing an actor that is already terminated (or an
  // empty ref) answers, having kept nothing (as Akka drops a dead subscriber).
  static constexpr SubscriptionId kNoSubscription = 0;

  SubscriptionId subscribe(std::type_index type, ActorRef subscriber);
  SubscriptionId subscribe(std::type_index type, Handler handler);
  template <class T>
  SubscriptionId subscribe(ActorRef subscriber) {
    return subscribe(std::type_index(typeid(T)), std::move(subscriber));
  }
  template <class T>
  SubscriptionId subscribe(std::function<void(const T&)> handler) {
    return subscribe(std::type_index(typeid(T)),
                     Handler([h = std::move(handler)](const Message& m) { h(m.get<T>()); }));
  }

  // Each returns how many subscriptions it removed.
  std::size_t unsubscribe(SubscriptionId id);
  std::size_t unsubscribe(const ActorRef& subscriber);
  std::size_t unsubscribe(const ActorRef& subscriber, std::type_index type);
  template <class T>
  std::size_t unsubscribe(const ActorRef& subscriber) {
    return unsubscribe(subscriber, std::type_index(typeid(T)));
  }

  // Delivers to every subscriber of message.type(), in subscription order.
  void publish(const Message& message) const;
  std::size_t subscriber_count() const;

  struct Subscription {
    SubscriptionId id;
    std::type_index type;
    ActorRef actor;   // either an actor ...
    Handler handler;  // ... or a function
  };

 private:
  mutable std::mutex mutex_;
  std::vector<Subscription> subscriptions_;
  SubscriptionId next_id_ = 1;
};

}  // namespace mailroom
