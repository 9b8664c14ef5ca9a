#!/bin/bash
# One Slurm array task per work unit of a split (docs/DISTRIBUTED.md): array task I solves
# unit I + RASTROS_UNIT_OFFSET of the split directory RASTROS_UNITS. Submit it with the array
# size from the manifest:
#
#   N=$(( $(awk '$1 == "units" {print $2}' work/split.txt) - 1 ))
#   mkdir -p logs && sbatch --array=0-$N scripts/solve-units.sh
#
# Options given to sbatch override the #SBATCH lines below; the RASTROS_* variables reach
# the job through sbatch's default --export=ALL.
#SBATCH --job-name=rastros-units
#SBATCH --array=0-337
#SBATCH --cpus-per-task=4
#SBATCH --mem=2G
#SBATCH --output=logs/unit-%a.out
set -euo pipefail
units=${RASTROS_UNITS:-work}         # the split directory
offset=${RASTROS_UNIT_OFFSET:-0}     # added to the task id, for splits beyond MaxArraySize
file=$(printf '%s/unit-%06d.pos' "$units" $((SLURM_ARRAY_TASK_ID + offset)))
exec "${RASTROS:-rastros}" solve-unit "$file" --mode "${RASTROS_MODE:-dte}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --hash-mb "${RASTROS_HASH_MB:-1024}" --skip-done \
  --checkpoint
