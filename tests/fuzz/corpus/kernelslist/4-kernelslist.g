MemcpyHtoD,0x00007f0000000000,256
kernel-1.traceg
