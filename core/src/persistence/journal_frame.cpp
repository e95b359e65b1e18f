#include "journal_frame.hpp"

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

void mark_damage(JournalScan& scan, std::uint64_t offset, std::string what) {
  scan.read.damaged = true;
  scan.read.damaged_at_offset = offset;
  scan.read.damage = "at byte " + std::to_string(offset) + ": " + std::move(what);
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

JournalScan scan_journal(std::string_view bytes) {
  JournalScan scan;
  if (bytes.empty()) return scan;
  if (bytes.size() < kFileHeaderSize) {
    mark_damage(scan, 0,
                "torn file header (" + std::to_string(bytes.size()) + " of " +
                    std::to_string(kFileHeaderSize) + " bytes)");
    return scan;
  }
  if (bytes.substr(0, 4) != kMagic) {
    mark_damage(scan, 0, "not a Mailroom journal (bad magic)");
    return scan;
  }
  if (crc32(bytes.substr(0, 16)) != get_u32(bytes, 16)) {
    mark_damage(scan, 0, "file header checksum mismatch");
    return scan;
  }
  if (get_u32(bytes, 4) != kJournalVersion) {
    mark_damage(scan, 0, "unsupported journal version " + std::to_string(get_u32(bytes, 4)));
    return scan;
  }
  scan.has_header = true;
  scan.base_sequence = get_u64(bytes, 8);
  scan.last_sequence = scan.base_sequence;
  std::size_t at = kFileHeaderSize;
  scan.valid_size = at;
  while (at < bytes.size()) {
    const std::size_t remaining = bytes.size() - at;
    if (remaining < kRecordHeaderSize) {
      mark_damage(scan, at,
                  "torn record header (" + std::to_string(remaining) + " of " +
                      std::to_string(kRecordHeaderSize) + " bytes)");
      return scan;
    }
    const std::uint32_t length = get_u32(bytes, at);
    const std::uint64_t sequence = get_u64(bytes, at + 4);
    if (length > kMaxRecordPayload) {
      mark_damage(scan, at, "record length " + std::to_string(length) + " exceeds the limit");
      return scan;
    }
    if (remaining - kRecordHeaderSize < length) {
      mark_damage(scan, at,
                  "torn record (payload of " + std::to_string(length) + " bytes, " +
                      std::to_string(remaining - kRecordHeaderSize) + " present)");
      return scan;
    }
    const std::string_view payload = bytes.substr(at + kRecordHeaderSize, length);
    if (crc32(payload, crc32(bytes.substr(at + 4, 8))) != get_u32(bytes, at + 12)) {
      mark_damage(scan, at, "record checksum mismatch");
      return scan;
    }
    // Sequences are contiguous; anything else means the framing went astray.
    if (sequence != scan.last_sequence + 1) {
      mark_damage(scan, at,
                  "sequence " + std::to_string(sequence) + " where " +
                      std::to_string(scan.last_sequence + 1) + " was expected");
      return scan;
    }
    scan.read.records.push_back(JournalRecord{sequence, std::string(payload)});
    scan.last_sequence = sequence;
    at += kRecordHeaderSize + length;
    scan.valid_size = at;
  }
  return scan;
}

}  // namespace mailroom::detail
