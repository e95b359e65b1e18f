// JsMailboxAdapter: the core Mailbox for a JS subclass that overrides the user
// path (the seed's SheddingMailbox). User-path calls go to the JS methods
// (envelopes as { message, sender }); the system queue stays in the subclass's
// own core mailbox. Only used on the host thread (wasm is single-threaded).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mailroom/mailbox.hpp"

namespace mailroom::wasm {

class JsMailboxAdapter final : public Mailbox {
 public:
  JsMailboxAdapter(emscripten::val instance, std::shared_ptr<Mailbox> base);
  ~JsMailboxAdapter() override;

  void enqueue(Envelope envelope) override;
  void enqueue_signal(Envelope envelope) override;
  void enqueue_system(Envelope envelope) override { base_->enqueue_system(std::move(envelope)); }
  std::size_t size() const override;
  std::size_t system_size() const override { return base_->system_size(); }
  MailboxDescription describe() const override;

  bool reports_drops() const noexcept override { return reports_drops_; }
  void observe_drops(DropObserver observer) override;
  std::uint64_t dropped_count() const noexcept override;
  bool dead_letter_drops() const noexcept override { return dead_letter_drops_; }

  std::optional<Envelope> dequeue_system() override { return base_->dequeue_system(); }
  std::optional<Envelope> dequeue_user() override;
  std::vector<Envelope> drain_user() override;
  std::vector<Envelope> drain_system() override { return base_->drain_system(); }
  void prepend_user(std::vector<Envelope> envelopes) override;

  // A JS observer reported a drop (hooks → core.dropNotify).
  static void notify_drop(std::uint32_t observer_key, const std::string& reason,
                          const emscripten::val& envelope);

 private:
  void enqueue_js(Envelope envelope, bool signal);
  emscripten::val call(const char* hook) const;

  emscripten::val instance_;
  std::shared_ptr<Mailbox> base_;
  bool reports_drops_;
  bool dead_letter_drops_;
  std::vector<std::uint32_t> observer_keys_;
};

}  // namespace mailroom::wasm
