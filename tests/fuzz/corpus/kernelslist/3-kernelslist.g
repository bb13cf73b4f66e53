MemcpyHtoD,0x0000000000010000,128
kernel-1.traceg
