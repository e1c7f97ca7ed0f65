// Channel: framed JSON messages between the engine and a child over a SOCK_SEQPACKET socket
// pair, one message per request or reply, a descriptor (a memfd) optionally attached through
// SCM_RIGHTS, so buffer memory never crosses the socket. request() waits for the reply under a
// deadline and says what went wrong otherwise: the peer closed, sent something that is not
// JSON, or did not answer in time.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "engine/ipc/deadline.h"
#include "engine/ipc/unique_fd.h"

namespace kta::engine::ipc {

using nlohmann::json;

// A SOCK_SEQPACKET message must fit the socket buffer (net.core.wmem_max, ~208 KiB by default);
// long texts (compiler logs, printf output) are cut to kMaxTextBytes before sending.
constexpr size_t kMaxMessageBytes = 200 * 1024;
constexpr size_t kMaxTextBytes = 64 * 1024;
// `text` cut to kMaxTextBytes, saying how much was left out.
std::string clip(const std::string& text);

// Sends one message (with an optional descriptor); one too large is replaced by
// {"ok": false, "error": "reply too large"}. False when the peer is gone.
bool send_message(int socket, const json& message, int fd = -1);

// One received message, or why there is none.
struct Received {
  enum class Kind { message, closed, not_json };
  Kind kind = Kind::closed;
  json message;
};
// Receives one message; sets *fd when a descriptor came along (else -1).
Received receive(int socket, int* fd = nullptr);
// Receives one message; empty when the peer is gone or sent something that is not JSON.
std::optional<json> receive_message(int socket, int* fd = nullptr);

// A reply, or why there is none.
struct Reply {
  enum class Failure { none, closed, not_json, timeout, io_error };
  std::optional<json> message;
  Failure failure = Failure::none;
  // "the worker closed the connection", "protocol error: the worker sent a message that is not
  // JSON", "timeout after 3 s", "poll failed: ..."
  std::string error;
  explicit operator bool() const { return message.has_value(); }
};

class Channel {
 public:
  Channel() = default;
  // `peer` names the other side in failures ("python runner").
  explicit Channel(UniqueFd socket, std::string peer = "peer")
      : socket_(std::move(socket)), peer_(std::move(peer)) {}

  // A connected pair: this end, and the end to hand to the child (close-on-exec; pass it
  // through SpawnSpec::fds). Empty with *error when the system refuses.
  static std::optional<std::pair<Channel, UniqueFd>> open_pair(std::string peer,
                                                               std::string* error);

  bool is_open() const { return bool(socket_); }
  int fd() const { return socket_.get(); }
  void close() { socket_.reset(); }

  bool send(const json& message, int fd = -1) const {
    return send_message(socket_.get(), message, fd);
  }
  Received receive(int* fd = nullptr) const { return ipc::receive(socket_.get(), fd); }
  // Sends `message` (with an optional descriptor) and waits for the reply until `deadline`.
  Reply request(const json& message, const Deadline& deadline, int fd = -1) const;

 private:
  Reply failed(Reply::Failure why, std::string error) const;

  UniqueFd socket_;
  std::string peer_ = "peer";
};

}  // namespace kta::engine::ipc
