// Core mailboxes created from JS, by numeric id. A JS Mailbox object owns its
// entry (released by a FinalizationRegistry when the object is collected): a
// StandaloneMailbox around its user queue, so the seed's whole member list
// (system queue, suspension) works on a mailbox no actor owns, and is refused
// by the core once an actor owns it. An actor spawned with it takes only the
// user queue and wraps it in its own ActorMailbox. A
// JsMessageQueue for a JS subclass is owned by the actor that uses it, so the
// table only watches it (weak), except between its creation and the factory
// call that hands it to the actor.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "mailroom/standalone_mailbox.hpp"

namespace mailroom::wasm {

class MailboxTable {
 public:
  static MailboxTable& instance();

  std::uint32_t add(std::shared_ptr<MessageQueue> queue);
  std::uint32_t add_adapter(std::shared_ptr<MessageQueue> adapter);  // held until taken
  // The user queue for an actor (an adapter's pending hold is dropped);
  // throws IllegalStateError.
  std::shared_ptr<MessageQueue> take(std::uint32_t id);
  // A JS Mailbox object's own mailbox; throws IllegalStateError when unknown,
  // released or an adapter.
  StandaloneMailbox& get(std::uint32_t id);
  bool alive(std::uint32_t id) const;
  void release(std::uint32_t id);

 private:
  struct Entry {
    std::shared_ptr<StandaloneMailbox> mailbox;  // none for an adapter
    std::shared_ptr<MessageQueue> strong;
    std::weak_ptr<MessageQueue> weak;
    bool adapter = false;
  };
  std::unordered_map<std::uint32_t, Entry> entries_;
  std::uint32_t next_id_ = 1;
};

}  // namespace mailroom::wasm
