/* A random Rastros bot in C, as course students write them: `random_bot IN OUT` reads the
 * game file IN, moves the snail to a random free neighbour and writes the game to OUT.
 * The seed is the number of moves, so a game replays the same. Exit 1 on a bad file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 34

static char rows[MAX][MAX + 2];
static char moves[128][8];

int main(int argc, char **argv) {
    if (argc != 3) return 1;
    FILE *in = fopen(argv[1], "r");
    if (!in) return 1;
    char line[256];
    int h = 0, n = 0, w = 0;
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) break;
        if (h == MAX) return 1;
        snprintf(rows[h++], sizeof rows[0], "%.34s", line);
    }
    while (fgets(line, sizeof line, in)) {
        char *p = strchr(line, ':'), a[8], b[8];
        if (!p) continue;
        int k = sscanf(p + 1, "%7s %7s", a, b);
        if (k >= 1 && n < 128) strcpy(moves[n++], a);
        if (k == 2 && n < 128) strcpy(moves[n++], b);
    }
    fclose(in);
    if (h == 0) return 1;
    w = (int)strlen(rows[0]);
    int sf = -1, sr = -1;
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++)
            if (rows[r][f] == '*') { sf = f; sr = r; }
    if (sf < 0) return 1;
    int cand[8][2], c = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int df = -1; df <= 1; df++) {
            int r = sr + dr, f = sf + df;
            if ((dr || df) && r >= 0 && r < h && f >= 0 && f < w && rows[r][f] != '#') {
                cand[c][0] = r; cand[c][1] = f; c++;
            }
        }
    if (c == 0) return 1;
    srand(n * 7919 + 1);
    int pick = rand() % c, r = cand[pick][0], f = cand[pick][1];
    rows[sr][sf] = '#';
    rows[r][f] = '*';
    snprintf(moves[n++], sizeof moves[0], "%c%d", 'a' + f, (h - r) % 100);
    FILE *out = fopen(argv[2], "w");
    if (!out) return 1;
    for (int i = 0; i < h; i++) fprintf(out, "%s\n", rows[i]);
    fprintf(out, "\n");
    for (int i = 0; i < n; i += 2) {
        if (i + 1 < n) fprintf(out, "%02d: %s %s\n", i / 2 + 1, moves[i], moves[i + 1]);
        else fprintf(out, "%02d: %s\n", i / 2 + 1, moves[i]);
    }
    return fclose(out) == 0 ? 0 : 1;
}
