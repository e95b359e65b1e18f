#include "mailbox_table.hpp"

#include "mailroom/errors.hpp"

namespace mailroom::wasm {

MailboxTable& MailboxTable::instance() {
  static MailboxTable table;
  return table;
}

std::uint32_t MailboxTable::add(std::shared_ptr<MessageQueue> queue) {
  const std::uint32_t id = next_id_++;
  entries_[id] = Entry{std::make_shared<StandaloneMailbox>(queue), queue, queue, false};
  return id;
}

std::uint32_t MailboxTable::add_adapter(std::shared_ptr<MessageQueue> adapter) {
  const std::uint32_t id = next_id_++;
  entries_[id] = Entry{nullptr, adapter, adapter, true};
  return id;
}

std::shared_ptr<MessageQueue> MailboxTable::take(std::uint32_t id) {
  auto it = entries_.find(id);
  std::shared_ptr<MessageQueue> queue = it == entries_.end() ? nullptr : it->second.weak.lock();
  if (!queue) throw IllegalStateError("this mailbox no longer exists");
  if (it->second.adapter) it->second.strong.reset();  // the actor owns it now
  return queue;
}

StandaloneMailbox& MailboxTable::get(std::uint32_t id) {
  auto it = entries_.find(id);
  if (it != entries_.end() && it->second.mailbox) return *it->second.mailbox;
  throw IllegalStateError("this mailbox no longer exists");
}

bool MailboxTable::alive(std::uint32_t id) const {
  auto it = entries_.find(id);
  return it != entries_.end() && !it->second.weak.expired();
}

void MailboxTable::release(std::uint32_t id) {
  entries_.erase(id);
}

}  // namespace mailroom::wasm
