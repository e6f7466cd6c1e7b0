# SPDX-License-Identifier: GPL-2.0-only
# Runs photonic-rails-sim (PROGRAM) with a jobs file of one job (JOBS_ARGS) and with that
# job's own flags (JOB_ARGS), both "|"-separated, into OUT_DIR/jobs and OUT_DIR/job, and
# checks that every output file of every fabric of FABRICS ("|"-separated) is the same byte
# for byte: summary.json too, once the wall time, events per second and peak memory (which
# no two runs share) are taken out.
string(REPLACE "|" ";" jobs_args "${JOBS_ARGS}")
string(REPLACE "|" ";" job_args "${JOB_ARGS}")
string(REPLACE "|" ";" fabrics "${FABRICS}")
file(REMOVE_RECURSE ${OUT_DIR})
foreach(run jobs job)
  execute_process(COMMAND ${PROGRAM} ${${run}_args} --out=${OUT_DIR}/${run}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run}: exit status '${rc}', expected 0\n${err}")
  endif()
endforeach()
foreach(fabric ${fabrics})
  foreach(file collectives.csv reconfigurations.csv timeline.json summary.json)
    file(READ ${OUT_DIR}/jobs/${fabric}/${file} first)
    file(READ ${OUT_DIR}/job/${fabric}/${file} second)
    if(file STREQUAL "summary.json")
      foreach(key wall_s events_per_s peak_rss_mb)
        string(JSON first REMOVE "${first}" ${key})
        string(JSON second REMOVE "${second}" ${key})
      endforeach()
    endif()
    if(NOT first STREQUAL second)
      message(FATAL_ERROR "${fabric}/${file} differs between the jobs file and the job")
    endif()
  endforeach()
  message(STATUS "${fabric}: every output file identical")
endforeach()
