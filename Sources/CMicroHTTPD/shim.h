// The only door to libmicrohttpd. Only PickerServer imports it.
//
// Supports: one daemon on 127.0.0.1 (never another address), a small thread pool, a
// callback when a request completes (to free its upload buffer), a callback that decides
// whether an accepted connection is served (the server refuses other users' sockets), at
// most 64 connections, and a 10 s inactivity timeout so an idle or stalled client is
// closed (and its socket does not wait in CLOSE-WAIT). MHD_start_daemon is variadic, which
// Swift cannot call, so the options are fixed here.
#ifndef PHOTOFS_CMICROHTTPD_SHIM_H
#define PHOTOFS_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

static inline struct MHD_Daemon *photofs_mhd_start_loopback(
    uint16_t port, MHD_AccessHandlerCallback handler, void *context, MHD_RequestCompletedCallback completed,
    MHD_AcceptPolicyCallback accept) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, port, accept, context, handler, context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)4,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context, MHD_OPTION_END);
}

static inline uint16_t photofs_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

// The IPv4 address (network byte order) and port (host order) of an accepted peer's
// `address`; 0 when it is not an IPv4 address.
static inline int photofs_mhd_peer_ipv4(const struct sockaddr *address, socklen_t length, uint32_t *ip, uint16_t *port) {
    if (address == NULL || length < (socklen_t)sizeof(struct sockaddr_in) || address->sa_family != AF_INET) return 0;
    struct sockaddr_in peer;
    memcpy(&peer, address, sizeof peer);
    *ip = peer.sin_addr.s_addr;
    *port = ntohs(peer.sin_port);
    return 1;
}
#endif
