// Core mailboxes created from JS, by numeric id. A JS Mailbox object owns its
// entry (released by a FinalizationRegistry when the object is collected); an
// adapter for a JS subclass is owned by the actor that uses it, so the table
// only watches it (weak), except between its creation and the factory call
// that hands it to the actor.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "mailroom/mailbox.hpp"

namespace mailroom::wasm {

class MailboxTable {
 public:
  static MailboxTable& instance();

  std::uint32_t add(std::shared_ptr<Mailbox> mailbox);
  std::uint32_t add_adapter(std::shared_ptr<Mailbox> adapter);  // held until taken
  // The mailbox (an adapter's pending hold is dropped); throws IllegalStateError.
  std::shared_ptr<Mailbox> take(std::uint32_t id);
  // Throws IllegalStateError when unknown, released or (adapter) gone.
  Mailbox& get(std::uint32_t id);
  bool alive(std::uint32_t id) const;
  void release(std::uint32_t id);

 private:
  struct Entry {
    std::shared_ptr<Mailbox> strong;
    std::weak_ptr<Mailbox> weak;
    bool adapter = false;
  };
  std::unordered_map<std::uint32_t, Entry> entries_;
  std::uint32_t next_id_ = 1;
};

}  // namespace mailroom::wasm
