/* test_output_file.c — pe_output (io/output_file.c): where the temporary
 * lives and what it is called, modes, symlinks, a discarded write, the
 * sweep of a crashed writer's leftovers, and the stream writers writing
 * the same bytes as the path writers. Error rows: test_errors_io.c (OUT). */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

static int holds(const char *path, const char *text) {
    char buf[256] = "";
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

static long file_size(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

TEST(output_temporary_is_named_and_placed_and_keeps_the_mode) {
    char dir[] = "/tmp/pe_out_XXXXXX", path[128], want[160];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.txt", dir);
    put(path, "old");
    CHECK(chmod(path, 0640) == 0);
    pe_output *o = NULL;
    CHECK_OK(pe_output_open(path, &o));
    if (o == NULL) return;
    const char *tmp = pe_output_temp_path(o);
    snprintf(want, sizeof want, "%s/.t.txt.posenc-tmp-%lld-", dir, (long long)getpid());
    CHECK_MSG(tmp != NULL && strncmp(tmp, want, strlen(want)) == 0 && strlen(tmp) == strlen(want) + 6,
              "temporary %s, want %sXXXXXX", tmp ? tmp : "(null)", want);
    struct stat sb;
    CHECK(tmp != NULL && stat(tmp, &sb) == 0 && (sb.st_mode & 07777) == 0640);
    CHECK(holds(path, "old")); /* untouched while the new one is written */
    fputs("new", pe_output_stream(o));
    CHECK_OK(pe_output_close(o, PE_OK));
    CHECK(holds(path, "new") && stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0640);
    CHECK(pe_test_dir_entries(dir) == 1);
    unlink(path);
    /* a new file: 0644 */
    CHECK_OK(pe_output_open(path, &o));
    if (o != NULL) CHECK_OK(pe_output_close(o, PE_OK));
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0644 && sb.st_size == 0);
    unlink(path);
    rmdir(dir);
}

TEST(output_discarded_write_leaves_the_old_file) {
    char dir[] = "/tmp/pe_out_XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.txt", dir);
    put(path, "old");
    pe_output *o = NULL;
    CHECK_OK(pe_output_open(path, &o));
    if (o == NULL) return;
    fputs("half of a new fi", pe_output_stream(o));
    CHECK(pe_output_close(o, PE_ERR_PARAM) == PE_ERR_PARAM); /* the caller's status, unchanged */
    CHECK(holds(path, "old"));
    CHECK_MSG(pe_test_dir_entries(dir) == 1, "the discarded temporary is still in %s", dir);
    unlink(path);
    rmdir(dir);
}

TEST(output_symlink_is_written_through) {
    char dir[] = "/tmp/pe_out_XXXXXX", path[128], link[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    put(path, "old");
    CHECK(symlink("target.txt", link) == 0);
    pe_output *o = NULL;
    CHECK_OK(pe_output_open(link, &o));
    if (o == NULL) return;
    CHECK(pe_output_temp_path(o) == NULL);
    fputs("new", pe_output_stream(o));
    CHECK_OK(pe_output_close(o, PE_OK));
    struct stat sb;
    CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode) && holds(path, "new"));
    unlink(link);
    unlink(path);
    rmdir(dir);
}

/* A crashed writer's temporary (its process is gone) is removed by the next
 * write to the same target; a live process's, and another target's, stay. */
TEST(output_sweeps_only_dead_writers_temporaries_of_its_target) {
    char dir[] = "/tmp/pe_out_XXXXXX", path[128], dead[192], live[192], other[192], odd[192];
    CHECK(mkdtemp(dir) != NULL);
    const pid_t child = fork();
    if (child == 0) _exit(0);
    CHECK(child > 0 && waitpid(child, NULL, 0) == child); /* reaped: its pid is free */
    snprintf(path, sizeof path, "%s/a.npy", dir);
    snprintf(dead, sizeof dead, "%s/.a.npy.posenc-tmp-%lld-AbC123", dir, (long long)child);
    snprintf(live, sizeof live, "%s/.a.npy.posenc-tmp-%lld-AbC123", dir, (long long)getppid());
    snprintf(other, sizeof other, "%s/.b.npy.posenc-tmp-%lld-AbC123", dir, (long long)child);
    snprintf(odd, sizeof odd, "%s/.a.npy.posenc-tmp-%lld-toolong1", dir, (long long)child);
    put(dead, "crash");
    put(live, "writing");
    put(other, "crash");
    put(odd, "not ours");
    const float v[2] = {1, 2};
    const int64_t shape[1] = {2};
    CHECK_OK(pe_npy_write(path, PE_F32, 1, shape, v));
    CHECK_MSG(access(dead, F_OK) != 0, "%s (a dead writer's) was not removed", dead);
    CHECK_MSG(access(live, F_OK) == 0, "%s (a live writer's) was removed", live);
    CHECK(access(other, F_OK) == 0 && access(odd, F_OK) == 0);
    CHECK(pe_test_dir_entries(dir) == 4);
    unlink(live);
    unlink(other);
    unlink(odd);
    unlink(path);
    rmdir(dir);
}

/* pe_npy_write_stream / pe_safetensors_write_stream write exactly the bytes
 * of pe_npy_write / pe_safetensors_write, and refuse bad arrays before
 * writing anything to the stream. */
TEST(output_stream_writers_match_the_path_writers) {
    char dir[] = "/tmp/pe_out_XXXXXX", a[128], b[128];
    CHECK(mkdtemp(dir) != NULL);
    const double v[6] = {1, 2, 3, 4, 5, 6};
    const int64_t shape[2] = {2, 3};
    for (int kind = 0; kind < 2; kind++) {
        snprintf(a, sizeof a, "%s/path.%s", dir, kind ? "st" : "npy");
        snprintf(b, sizeof b, "%s/stream.%s", dir, kind ? "st" : "npy");
        const pe_st_tensor t[1] = {{.name = "w", .dtype = PE_F64, .ndim = 2, .shape = {2, 3},
                                    .data = v, .nbytes = sizeof v}};
        const char *meta[] = {"k", "v", NULL};
        CHECK_OK(kind ? pe_safetensors_write(a, t, 1, meta) : pe_npy_write(a, PE_F64, 2, shape, v));
        FILE *f = fopen(b, "wb");
        CHECK(f != NULL);
        if (f == NULL) continue;
        CHECK_OK(kind ? pe_safetensors_write_stream(f, t, 1, meta)
                      : pe_npy_write_stream(f, PE_F64, 2, shape, v));
        const int64_t bad[2] = {2, -3};
        CHECK(pe_npy_write_stream(f, PE_F64, 2, bad, v) == PE_ERR_SHAPE);
        fclose(f);
        CHECK(file_size(a) > 0 && file_size(a) == file_size(b));
        char *x = malloc((size_t)file_size(a)), *y = malloc((size_t)file_size(b));
        FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
        CHECK(x && y && fa && fb && fread(x, 1, (size_t)file_size(a), fa) == (size_t)file_size(a) &&
              fread(y, 1, (size_t)file_size(b), fb) == (size_t)file_size(b) &&
              memcmp(x, y, (size_t)file_size(a)) == 0);
        if (fa) fclose(fa);
        if (fb) fclose(fb);
        free(x);
        free(y);
        unlink(a);
        unlink(b);
    }
    rmdir(dir);
}

/* A 250-byte file name (NAME_MAX is 255): the temporary's copy of it is cut
 * to 200 bytes so its own name still fits, and the write goes through. */
TEST(output_long_file_name_fits_its_temporary) {
    char dir[] = "/tmp/pe_out_XXXXXX", path[400];
    CHECK(mkdtemp(dir) != NULL);
    int n = snprintf(path, sizeof path, "%s/", dir);
    for (int i = 0; i < 246; i++) path[n++] = 'a' + i % 26;
    memcpy(path + n, ".npy", 5);
    const float v[2] = {1, 2};
    const int64_t shape[1] = {2};
    CHECK_OK(pe_npy_write(path, PE_F32, 1, shape, v));
    CHECK(file_size(path) > 0 && pe_test_dir_entries(dir) == 1);
    unlink(path);
    rmdir(dir);
}
