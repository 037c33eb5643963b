"""Development tools beside afterhack: the benchmark (bench/) and the load test (load/)."""
