#include "journal_frame.hpp"

#include <algorithm>

#include "crc32.hpp"

namespace mailroom::detail {
namespace {

constexpr std::string_view kMagic = "MRJL";

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
}

std::uint32_t get_u32(std::string_view in, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
  return v;
}

std::uint64_t get_u64(std::string_view in, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
  return v;
}

// A window over the source: bytes are read in chunks and dropped once passed,
// so a scan holds about one chunk (or one record) at a time.
class Window {
 public:
  Window(std::uint64_t size, const JournalByteSource& source) : size_(size), source_(source) {}

  // Up to n bytes at offset (fewer at the end of the input).
  std::string_view get(std::uint64_t offset, std::size_t n) {
    if (offset < start_ || offset > start_ + buffer_.size()) {
      buffer_.clear();
      start_ = offset;
    } else if (offset - start_ >= kScanChunk) {
      buffer_.erase(0, static_cast<std::size_t>(offset - start_));
      start_ = offset;
    }
    const std::uint64_t end = std::min<std::uint64_t>(offset + n, size_);
    while (start_ + buffer_.size() < end) {
      const std::uint64_t from = start_ + buffer_.size();
      const auto want = static_cast<std::size_t>(std::max<std::uint64_t>(kScanChunk, end - from));
      std::string more = source_(from, want);
      if (more.empty()) {  // the input is shorter than announced
        size_ = from;
        break;
      }
      buffer_ += more;
    }
    const auto at = static_cast<std::size_t>(offset - start_);
    if (at >= buffer_.size()) return {};
    return std::string_view(buffer_).substr(at, n);
  }

  std::uint64_t size() const { return size_; }

 private:
  std::uint64_t size_;
  const JournalByteSource& source_;
  std::string buffer_;
  std::uint64_t start_ = 0;
};

struct Frame {
  bool intact = false;
  bool plausible = false;  // a header that could start a record (length in range)
  std::uint64_t sequence = 0;
  std::uint32_t length = 0;
  std::string reason;
};

Frame try_frame(Window& window, std::uint64_t at) {
  Frame f;
  const std::string_view head = window.get(at, kRecordHeaderSize);
  if (head.size() < kRecordHeaderSize) {
    f.reason = "torn record header (" + std::to_string(head.size()) + " of " +
               std::to_string(kRecordHeaderSize) + " bytes)";
    return f;
  }
  f.length = get_u32(head, 0);
  f.sequence = get_u64(head, 4);
  const std::uint32_t crc = get_u32(head, 12);
  if (f.length > kMaxRecordPayload) {
    f.reason = "record length " + std::to_string(f.length) + " exceeds the limit";
    return f;
  }
  const std::uint64_t present = window.size() - at - kRecordHeaderSize;
  if (present < f.length) {
    f.plausible = true;
    f.reason = "torn record (payload of " + std::to_string(f.length) + " bytes, " +
               std::to_string(present) + " present)";
    return f;
  }
  // head is invalidated by the next get(): keep the sequence bytes.
  std::string sequence_bytes(head.substr(4, 8));
  const std::string_view payload = window.get(at + kRecordHeaderSize, f.length);
  if (crc32(payload, crc32(sequence_bytes)) != crc) {
    f.plausible = true;
    f.reason = "record checksum mismatch";
    return f;
  }
  f.intact = true;
  return f;
}

// Records lost in a damaged stretch at the end, where no later sequence
// number tells: the frames that can be walked by their length fields (a torn
// or corrupted frame counts once).
std::uint64_t tail_records(Window& window, std::uint64_t at, bool plausible) {
  if (!plausible) return 0;
  std::uint64_t records = 0;
  while (at < window.size()) {
    ++records;
    const std::string_view head = window.get(at, kRecordHeaderSize);
    if (head.size() < kRecordHeaderSize) break;
    const std::uint32_t length = get_u32(head, 0);
    if (length > kMaxRecordPayload) break;
    at += kRecordHeaderSize + length;
  }
  return records;
}

// See JournalScan::tail_high_water.
std::uint64_t tail_high_water(Window& window, std::uint64_t start, std::uint64_t last) {
  const std::uint64_t length = window.size() - start;
  const std::uint64_t most = (length + kRecordHeaderSize - 1) / kRecordHeaderSize;
  std::uint64_t high = last + most;
  const std::string_view head = window.get(start, kRecordHeaderSize);
  if (head.size() == kRecordHeaderSize) {
    // A torn frame's header usually survives: its number may lie beyond a gap a repair left.
    constexpr std::uint64_t kPlausibleJump = std::uint64_t{1} << 32;
    const std::uint64_t sequence = get_u64(head, 4);
    if (sequence > last && sequence - last <= kPlausibleJump)
      high = std::max(high, sequence + most - 1);
  }
  return high;
}

std::string summary(const JournalReadResult& read) {
  std::string out;
  constexpr std::size_t kShown = 4;
  for (std::size_t i = 0; i < read.damages.size() && i < kShown; ++i) {
    const JournalDamage& d = read.damages[i];
    if (!out.empty()) out += "; ";
    out += "at byte " + std::to_string(d.offset) + ": " + d.reason + " (" +
           std::to_string(d.length) + " bytes skipped";
    if (d.records > 0) out += ", " + std::to_string(d.records) + " records lost";
    out += ")";
  }
  if (read.damages.size() > kShown) {
    out += "; and " + std::to_string(read.damages.size() - kShown) + " more damaged stretches";
  }
  return out;
}

}  // namespace

std::string encode_file_header(std::uint64_t base_sequence) {
  std::string out(kMagic);
  put_u32(out, kJournalVersion);
  put_u64(out, base_sequence);
  put_u32(out, crc32(out));
  return out;
}

std::string encode_record(std::uint64_t sequence, std::string_view payload) {
  std::string out;
  out.reserve(kRecordHeaderSize + payload.size());
  put_u32(out, static_cast<std::uint32_t>(payload.size()));
  put_u64(out, sequence);
  const std::uint32_t crc = crc32(payload, crc32(std::string_view(out).substr(4, 8)));
  put_u32(out, crc);
  out.append(payload);
  return out;
}

JournalScan scan_journal(std::uint64_t size, const JournalByteSource& source) {
  JournalScan scan;
  Window window(size, source);
  JournalReadResult& read = scan.read;

  // An open damaged stretch: where it began, why, and whether it began with
  // a frame that looked like a record (a torn or corrupted one).
  bool in_damage = false;
  std::uint64_t damage_start = 0;
  std::string damage_reason;
  bool damage_plausible = false;
  const auto open_damage = [&](std::uint64_t at, std::string reason, bool plausible) {
    if (in_damage) return;
    in_damage = true;
    damage_start = at;
    damage_reason = std::move(reason);
    damage_plausible = plausible;
  };
  const auto close_damage = [&](std::uint64_t end, std::uint64_t records) {
    if (!in_damage) return;
    in_damage = false;
    read.damages.push_back(JournalDamage{damage_start, end - damage_start, records, damage_reason});
  };

  std::uint64_t at = 0;
  if (window.size() == 0) return scan;
  const std::string_view head = window.get(0, kFileHeaderSize);
  if (head.size() < kFileHeaderSize) {
    open_damage(0,
                "torn file header (" + std::to_string(head.size()) + " of " +
                    std::to_string(kFileHeaderSize) + " bytes)",
                false);
    at = window.size();
  } else if (head.substr(0, 4) != kMagic) {
    open_damage(0, "not a Mailroom journal (bad magic)", false);
  } else if (crc32(head.substr(0, 16)) != get_u32(head, 16)) {
    open_damage(0, "file header checksum mismatch", false);
  } else if (get_u32(head, 4) != kJournalVersion) {
    open_damage(0, "unsupported journal version " + std::to_string(get_u32(head, 4)), false);
  } else {
    scan.has_header = true;
    scan.base_sequence = get_u64(head, 8);
    scan.last_sequence = scan.base_sequence;
    at = kFileHeaderSize;
  }

  while (at < window.size()) {
    Frame frame = try_frame(window, at);
    if (frame.intact && frame.sequence <= scan.last_sequence) {
      frame.intact = false;
      frame.plausible = true;
      frame.reason = "sequence " + std::to_string(frame.sequence) + " does not follow " +
                     std::to_string(scan.last_sequence);
    }
    if (frame.intact) {
      // Records lost in the stretch: the sequence numbers it swallowed.
      close_damage(at, read.records.empty() && !scan.has_header
                           ? 0
                           : frame.sequence - scan.last_sequence - 1);
      const std::string_view payload = window.get(at + kRecordHeaderSize, frame.length);
      read.records.push_back(JournalRecord{frame.sequence, std::string(payload)});
      scan.last_sequence = frame.sequence;
      at += kRecordHeaderSize + frame.length;
      continue;
    }
    open_damage(at, std::move(frame.reason), frame.plausible);
    ++at;  // resynchronise: try the next byte
  }
  scan.tail_high_water = scan.last_sequence;
  if (in_damage) {
    const std::uint64_t start = damage_start;
    close_damage(window.size(), tail_records(window, start, damage_plausible));
    scan.tail_high_water = tail_high_water(window, start, scan.last_sequence);
  }

  scan.size = window.size();
  read.damaged = !read.damages.empty();
  if (read.damaged) {
    read.damaged_at_offset = read.damages.front().offset;
    for (const JournalDamage& d : read.damages) {
      read.skipped_bytes += d.length;
      read.skipped_records += d.records;
    }
    read.damage = summary(read);
  }
  return scan;
}

JournalScan scan_journal(std::string_view bytes) {
  return scan_journal(bytes.size(), [bytes](std::uint64_t offset, std::size_t length) {
    if (offset >= bytes.size()) return std::string();
    return std::string(bytes.substr(static_cast<std::size_t>(offset), length));
  });
}

}  // namespace mailroom::detail
