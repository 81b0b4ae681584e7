#!/usr/bin/env bash
# Records the GPU machine facts a lock describing it needs (driver, CUDA, NCCL, torch, library paths),
# plus the PyTorch reference figures. Usage: bench/gpu/machine_facts.sh > facts.txt
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
{
nvidia-smi; nvidia-smi topo -m; cat /proc/driver/nvidia/version; cat /etc/os-release|head -2; ldd --version|head -1
which python3; python3 -c "import torch,sys;print(torch.__version__,torch.version.cuda,torch.version.git_version,torch.cuda.nccl.version(),torch.backends.cudnn.version(),torch.cuda.device_count(),torch.__file__)"
python3 -c "import torch;t=torch.zeros(1,device='cuda');import os;[print(l.strip()) for l in open('/proc/self/maps') if any(k in l for k in ('nccl','cudart','cublas','cudnn','libcuda'))]" | awk '{print $6}' | sort -u
ldconfig -p | grep -E 'nccl|cudart|cublasLt|cudnn|libcuda\.' 
find / -xdev \( -name 'libnccl.so*' -o -name 'libcudart.so*' -o -name 'libcublasLt.so*' -o -name 'libcudnn.so*' -o -name 'libcuda.so*' \) 2>/dev/null | head -40
ls /usr/local/cuda/version.json && head -c 400 /usr/local/cuda/version.json
T=$(python3 -c "import torch,os;print(os.path.dirname(torch.__file__))"); cat $T/version.py; readelf -d $T/lib/libtorch_cuda.so | grep -E 'NEEDED|RUNPATH|RPATH'
strings -a $(python3 -c "import nvidia.nccl,os;print(nvidia.nccl.__path__[0])")/lib/libnccl.so.2 | grep 'NCCL version' | head -3
echo VIRTUAL_ENV=$VIRTUAL_ENV; python3 -c "import site;print(site.getsitepackages())"
/usr/local/cuda/bin/nvcc --version | tail -2
time python3 -c "import torch; torch.cuda.init()"
python3 bench/gpu/torch_reference.py
CUDA_VISIBLE_DEVICES=0 python3 bench/gpu/torch_reference.py allreduce
} 2>&1
