/* golgen serve in a build without libwebsockets (cli/serve/meson.build). */
#include <stdio.h>

#include "cli_args.h"
#include "commands.h"

int gg_cmd_serve(int argc, char **argv, const gg_config *cfg)
{
    (void)argc, (void)argv, (void)cfg;
    fprintf(stderr, "golgen serve: this golgen was built without the viewer "
                    "(libwebsockets was not found); install "
                    "libwebsockets-dev and build again\n");
    return GG_EXIT_ENV;
}
