# The shipped Simplified Chinese translation against the sources as they are: lupdate
# reads every string the console shows into a copy of the .ts file, and any that has no
# translation there (new, or changed since) fails the test, named with its context. So
# does an entry the shipped file still keeps for a string the sources no longer have.
# Run by ctest: cmake -DLUPDATE=… -DSOURCE=… -DWORK=… -P translationscheck.cmake
set(shipped ${SOURCE}/resources/translations/meridian_zh_CN.ts)
file(MAKE_DIRECTORY ${WORK})
file(READ ${shipped} shippedText)
string(REGEX MATCHALL "type=\"(vanished|obsolete|unfinished)\"" stale "${shippedText}")
list(LENGTH stale staleCount)
if(staleCount GREATER 0)
    message(FATAL_ERROR "${shipped}: ${staleCount} entries unfinished or for strings the "
        "sources no longer have; run lupdate -no-obsolete and translate them")
endif()
configure_file(${shipped} ${WORK}/check.ts COPYONLY)
execute_process(
    COMMAND ${LUPDATE} -silent -no-obsolete -locations none
        ${SOURCE}/widgets ${SOURCE}/models ${SOURCE}/app/console -ts ${WORK}/check.ts
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${status})")
endif()
file(READ ${WORK}/check.ts text)
string(REGEX MATCHALL "<source>[^<]*</source>[ \n]*<translation type=\"unfinished\"" missing
    "${text}")
list(LENGTH missing missingCount)
if(missingCount GREATER 0)
    string(REGEX REPLACE "[ \n]*<translation type=\"unfinished\"" "" missing "${missing}")
    string(REPLACE ";" "\n  " missing "${missing}")
    message(FATAL_ERROR "${missingCount} string(s) the console shows have no Chinese "
        "translation in ${shipped}:\n  ${missing}")
endif()
message(STATUS "every string the console shows has its translation")
