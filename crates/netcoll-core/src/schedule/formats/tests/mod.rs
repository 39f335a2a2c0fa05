mod goal_files;
mod msccl_files;
