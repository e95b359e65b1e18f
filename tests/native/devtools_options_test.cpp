// ActorSystemOptions::with_devtools and HOCON mailroom.devtools in a program
// without the DevTools server library (this test links only the core): asking
// for a server refuses to start with a named error instead of running without
// one; the HOCON block's fields and validation.
#include <gtest/gtest.h>

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_extension.hpp"
#include "mailroom/devtools_not_linked_error.hpp"
#include "mailroom/devtools_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

ActorSystemOptions quiet() {
  auto o = ActorSystemOptions::create();
  o.with_log_sink([](const LogEvent&) {});
  return o;
}

// with_devtools() without the library linked: create() throws DevtoolsNotLinkedError naming the
// option and how to link the library.
TEST(DevtoolsOptions, WithDevtoolsWithoutTheLibraryRefusesToStart) {
  ASSERT_EQ(DevtoolsExtension::starter(), nullptr);
  try {
    ActorSystem::create("nolib", quiet().with_devtools());
    FAIL() << "create() started a system whose DevTools server cannot exist";
  } catch (const DevtoolsNotLinkedError& e) {
    EXPECT_EQ(e.source(), "ActorSystemOptions::with_devtools");
    EXPECT_NE(std::string(e.what()).find("mailroom::devtools_server"), std::string::npos);
  }
}

// A HOCON mailroom.devtools block asks for the server just the same.
TEST(DevtoolsOptions, HoconBlockWithoutTheLibraryRefusesToStart) {
  try {
    ActorSystem::create("nolib", quiet().with_config("mailroom.devtools { port = 0 }"));
    FAIL() << "create() ignored mailroom.devtools";
  } catch (const DevtoolsNotLinkedError& e) {
    EXPECT_EQ(e.source(), "HOCON mailroom.devtools");
  }
}

// No block, a block with enabled = false, or a null block: no server is asked for, the system
// starts and reports none.
TEST(DevtoolsOptions, NoBlockOrDisabledBlockStartsWithoutServer) {
  for (const char* config :
       {"mailroom.logger.level = info", "mailroom.devtools { enabled = false, port = 1 }",
        "mailroom.devtools = null"}) {
    auto system = ActorSystem::create("plain", quiet().with_config(config));
    EXPECT_EQ(system->devtools(), nullptr) << config;
    system->terminate();
    system->await_termination();
  }
}

// Every field of the block; the list of origins is comma separated.
TEST(DevtoolsOptions, HoconFieldsFillTheOptions) {
  const auto config = HoconConfig::parse(
      "mailroom.devtools { port = 9464, bind = \"0.0.0.0\", allow-writes = true, "
      "allowed-origins = \"http://localhost:5173, http://localhost:4173\", panel-dir = web/x }");
  EXPECT_TRUE(DevtoolsOptions::requested_by(config));
  const DevtoolsOptions o = DevtoolsOptions::from_config(config);
  EXPECT_EQ(o.port, 9464);
  EXPECT_EQ(o.bind, "0.0.0.0");
  EXPECT_TRUE(o.allow_writes);
  EXPECT_EQ(o.allowed_origins,
            (std::vector<std::string>{"http://localhost:5173", "http://localhost:4173"}));
  EXPECT_EQ(o.panel_dir, "web/x");
  const DevtoolsOptions defaults = DevtoolsOptions::from_config(HoconConfig::parse("a = 1"));
  EXPECT_EQ(defaults.bind, "127.0.0.1");
  EXPECT_EQ(defaults.port, 0);
  EXPECT_FALSE(defaults.allow_writes);
}

// Bad values are named: a port out of range or fractional, an empty bind, a block that is a
// scalar; and the code option checks its value at once.
TEST(DevtoolsOptions, BadValuesAreNamed) {
  auto field_of = [](const char* text) -> std::string {
    try {
      const auto config = HoconConfig::parse(text);
      if (DevtoolsOptions::requested_by(config)) DevtoolsOptions::from_config(config);
    } catch (const OptionsError& e) {
      return e.field();
    }
    return "accepted";
  };
  EXPECT_EQ(field_of("mailroom.devtools.port = 70000"), "port");
  EXPECT_EQ(field_of("mailroom.devtools.port = 80.5"), "port");
  EXPECT_EQ(field_of("mailroom.devtools.port = -1"), "port");
  EXPECT_EQ(field_of("mailroom.devtools.bind = \"\""), "bind");
  EXPECT_EQ(field_of("mailroom.devtools = 9464"), "mailroom.devtools");
  EXPECT_THROW(
      DevtoolsOptions::from_config(HoconConfig::parse("mailroom.devtools.allow-writes = 3")),
      ConfigError);
  DevtoolsOptions no_room;
  no_room.max_queued_frames = 0;
  EXPECT_THROW(ActorSystemOptions::create().with_devtools(no_room), OptionsError);
  DevtoolsOptions weak;
  weak.token = "short";
  EXPECT_THROW(ActorSystemOptions::create().with_devtools(weak), OptionsError);
  weak.token = "0123456789abcdef&x=1";
  EXPECT_THROW(ActorSystemOptions::create().with_devtools(weak), OptionsError);
  weak.token = "0123456789abcdef";
  EXPECT_NO_THROW(ActorSystemOptions::create().with_devtools(weak));
  DevtoolsOptions no_bind;
  no_bind.bind.clear();
  EXPECT_THROW(ActorSystemOptions::create().with_devtools(no_bind), OptionsError);
}

}  // namespace
}  // namespace mailroom
