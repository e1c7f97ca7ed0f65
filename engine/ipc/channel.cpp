#include "engine/ipc/channel.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace kta::engine::ipc {

std::string clip(const std::string& text) {
  if (text.size() <= kMaxTextBytes) return text;
  return text.substr(0, kMaxTextBytes) + "\n[... " + std::to_string(text.size() - kMaxTextBytes) +
         " more bytes]\n";
}

bool send_message(int socket, const json& message, int fd) {
  std::string text = message.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxMessageBytes)
    text = json{{"ok", false}, {"error", "reply too large"}}.dump();
  iovec iov{text.data(), text.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  }
  for (;;) {
    ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n >= 0) return true;
    if (errno != EINTR) return false;
  }
}

Received receive(int socket, int* fd) {
  static thread_local std::vector<char> buf(kMaxMessageBytes + 1);
  iovec iov{buf.data(), buf.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (fd != nullptr) *fd = -1;
  if (n <= 0) return {};
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    int got = -1;
    std::memcpy(&got, CMSG_DATA(c), sizeof(int));
    if (fd != nullptr) {
      *fd = got;
    } else {
      ::close(got);  // nobody asked for it: do not leak it
    }
  }
  Received r;
  r.message = json::parse(buf.data(), buf.data() + n, nullptr, false);
  r.kind = r.message.is_discarded() ? Received::Kind::not_json : Received::Kind::message;
  return r;
}

std::optional<json> receive_message(int socket, int* fd) {
  Received r = receive(socket, fd);
  if (r.kind != Received::Kind::message) return std::nullopt;
  return std::move(r.message);
}

std::optional<std::pair<Channel, UniqueFd>> Channel::open_pair(std::string peer,
                                                               std::string* error) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
    *error = std::string("cannot create a socket pair: ") + std::strerror(errno);
    return std::nullopt;
  }
  return std::make_pair(Channel(UniqueFd(sv[0]), std::move(peer)), UniqueFd(sv[1]));
}

Reply Channel::failed(Reply::Failure why, std::string error) const {
  Reply r;
  r.failure = why;
  r.error = std::move(error);
  return r;
}

Reply Channel::request(const json& message, const Deadline& deadline, int fd) const {
  if (!send(message, fd))
    return failed(Reply::Failure::closed, "the " + peer_ + " closed the connection");
  for (;;) {
    if (deadline.passed()) return failed(Reply::Failure::timeout, deadline.timeout_text());
    pollfd p{socket_.get(), POLLIN, 0};
    int n = poll(&p, 1, int(deadline.left(std::chrono::milliseconds(1000)).count()));
    if (n < 0 && errno != EINTR)
      return failed(Reply::Failure::io_error, std::string("poll failed: ") + std::strerror(errno));
    if (n <= 0) continue;
    Received in = receive();
    switch (in.kind) {
      case Received::Kind::message: {
        Reply r;
        r.message = std::move(in.message);
        return r;
      }
      case Received::Kind::not_json:
        return failed(Reply::Failure::not_json,
                      "protocol error: the " + peer_ + " sent a message that is not JSON");
      case Received::Kind::closed:
        return failed(Reply::Failure::closed, "the " + peer_ + " closed the connection");
    }
  }
}

}  // namespace kta::engine::ipc
