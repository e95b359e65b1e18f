// Numbers never follow the host's locale: after setlocale(LC_ALL,
// "de_DE.UTF-8") (decimal comma), HOCON still reads "1.5s" as 1500 ms and
// "1.0e3" as 1000, and the metrics text still writes "0.5". Before the
// CLocaleScope calls, strtod stopped at the '.' (1.5s became 1000 ms, 1.0e3
// became 1) and the scrape wrote "0,5", which Prometheus refuses.
#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <string>

#include "mailroom/hocon_config.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/metrics_writer.hpp"

namespace mailroom {
namespace {

// Switches the process to a German locale for one test, compiling it with
// localedef into a private folder (LOCPATH) when the system has not
// generated it; restores the C locale after.
class GermanLocale : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr) compile_locale();
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") == nullptr) {
      GTEST_SKIP() << "no de_DE.UTF-8 locale (install Debian's locales package)";
    }
    // musl (the wasm build) accepts the name but keeps the decimal point.
    if (std::string(std::localeconv()->decimal_point) != ",") {
      std::setlocale(LC_ALL, "C");
      GTEST_SKIP() << "this libc's de_DE.UTF-8 has no decimal comma";
    }
  }
  void TearDown() override { std::setlocale(LC_ALL, "C"); }

 private:
  static void compile_locale() {
#ifndef __EMSCRIPTEN__
    const std::string dir = ::testing::TempDir() + "mailroom-locales";
    const std::string command = "mkdir -p '" + dir + "' && localedef -i de_DE -f UTF-8 '" + dir +
                                "/de_DE.UTF-8' >/dev/null 2>&1";
    if (std::system(command.c_str()) == 0) ::setenv("LOCPATH", dir.c_str(), 1);
#endif
  }
};

TEST_F(GermanLocale, HoconFractionsAndExponentsReadAsWritten) {
  const HoconConfig config = HoconConfig::parse("a = 1.5s\nb = 1.0e3\nc = 0.25\n");
  EXPECT_EQ(config.get_duration_ms("a"), 1500);
  EXPECT_EQ(config.get_number("b"), 1000.0);
  EXPECT_EQ(config.get_number("c"), 0.25);
  EXPECT_EQ(config.get_string("c"), "0.25");
}

TEST_F(GermanLocale, MetricsTextKeepsTheDecimalPoint) {
  MetricsRegistry registry;
  registry.add_collector([](MetricsWriter& out) { out.gauge("mailroom_half", "a half", {}, 0.5); });
  const std::string text = registry.scrape();
  EXPECT_NE(text.find("mailroom_half 0.5\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace mailroom
