/* A user's program for the rxe guest (RxeContainerTest): lists the RDMA devices with port 1's
 * state and active MTU, as ibv_devinfo would, and exits with the number of devices it found. */
#include <stdio.h>
#include <infiniband/verbs.h>

int main(void)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);

	if (!list) {
		perror("ibv_get_device_list");
		return 100;
	}
	for (int i = 0; i < n; i++) {
		struct ibv_context *ctx = ibv_open_device(list[i]);
		struct ibv_port_attr port;

		if (!ctx || ibv_query_port(ctx, 1, &port)) {
			printf("%s: cannot query port 1\n", ibv_get_device_name(list[i]));
			continue;
		}
		printf("%s port 1 %s mtu %d\n", ibv_get_device_name(list[i]),
		       ibv_port_state_str(port.state), 128 << port.active_mtu);
		ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
	return n;
}
