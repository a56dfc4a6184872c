/**
 * Small host helpers in the style of the kernel-launch samples: file I/O for the raw .bin inputs and
 * outputs, typed printing, and the CHECK_ACL macro. Includes acl/acl.h in both NPU and CPU builds.
 */
#ifndef DATA_UTILS_H
#define DATA_UTILS_H
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"

typedef enum {
    DT_UNDEFINED = -1,
    FLOAT = 0,
    HALF = 1,
    INT8_T = 2,
    INT32_T = 3,
    UINT8_T = 4,
    INT16_T = 6,
    UINT16_T = 7,
    UINT32_T = 8,
    INT64_T = 9,
    UINT64_T = 10,
    DOUBLE = 11,
    BOOL = 12,
    STRING = 13,
    COMPLEX64 = 16,
    COMPLEX128 = 17,
    BF16 = 27
} printDataType;

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define WARN_LOG(fmt, args...) fprintf(stdout, "[WARN]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stdout, "[ERROR]  " fmt "\n", ##args)
#define CHECK_ACL(x)                                                                        \
    do {                                                                                    \
        aclError __ret = x;                                                                 \
        if (__ret != ACL_ERROR_NONE) {                                                      \
            std::cerr << __FILE__ << ":" << __LINE__ << " aclError:" << __ret << std::endl; \
        }                                                                                   \
    } while (0);

/**
 * @brief Read a raw binary file into buffer.
 * @param [in] filePath: file to read
 * @param [out] fileSize: size of the file in bytes
 * @param [out] buffer: destination
 * @param [in] bufferSize: capacity of buffer
 * @return true when the whole file was read
 */
bool ReadFile(const std::string &filePath, size_t &fileSize, void *buffer, size_t bufferSize)
{
    struct stat sBuf;
    if (stat(filePath.c_str(), &sBuf) == -1) {
        ERROR_LOG("failed to get file %s", filePath.c_str());
        return false;
    }
    if (!S_ISREG(sBuf.st_mode)) {
        ERROR_LOG("%s is not a file, please enter a file", filePath.c_str());
        return false;
    }
    std::ifstream file(filePath, std::ios::binary);
    if (!file.is_open()) {
        ERROR_LOG("Open file failed. path = %s", filePath.c_str());
        return false;
    }
    file.seekg(0, std::ifstream::end);
    size_t size = static_cast<size_t>(file.tellg());
    if (size > bufferSize) {
        ERROR_LOG("file size %zu is larger than buffer size %zu", size, bufferSize);
        file.close();
        return false;
    }
    file.seekg(0, std::ifstream::beg);
    file.read(static_cast<char *>(buffer), static_cast<std::streamsize>(size));
    file.close();
    fileSize = size;
    return true;
}

/**
 * @brief Write a buffer to a raw binary file (created or truncated).
 * @param [in] filePath: file to write
 * @param [in] buffer: data
 * @param [in] size: number of bytes
 * @return true when every byte was written
 */
bool WriteFile(const std::string &filePath, const void *buffer, size_t size)
{
    if (buffer == nullptr) {
        ERROR_LOG("Write file failed. buffer is nullptr");
        return false;
    }
    int fd = open(filePath.c_str(), O_RDWR | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR);
    if (fd < 0) {
        ERROR_LOG("Open file failed. path = %s", filePath.c_str());
        return false;
    }
    const char *data = static_cast<const char *>(buffer);
    size_t written = 0;
    while (written < size) {
        ssize_t n = write(fd, data + written, size - written);
        if (n <= 0) {
            ERROR_LOG("Write file failed. path = %s", filePath.c_str());
            close(fd);
            return false;
        }
        written += static_cast<size_t>(n);
    }
    close(fd);
    return true;
}

template <typename T> void DoPrintData(const T *data, size_t count, size_t elementsPerRow)
{
    for (size_t i = 0; i < count; ++i) {
        std::cout << data[i];
        std::cout << ((i % elementsPerRow == elementsPerRow - 1) ? "\n" : " ");
    }
}

void DoPrintHalfData(const aclFloat16 *data, size_t count, size_t elementsPerRow)
{
    for (size_t i = 0; i < count; ++i) {
        std::printf("%.4f", static_cast<double>(aclFloat16ToFloat(data[i])));
        std::printf("%s", (i % elementsPerRow == elementsPerRow - 1) ? "\n" : " ");
    }
}

void PrintData(const void *data, size_t count, printDataType dataType, size_t elementsPerRow = 16)
{
    if (data == nullptr) {
        ERROR_LOG("Print data failed. data is nullptr");
        return;
    }
    switch (dataType) {
        case BOOL: DoPrintData(reinterpret_cast<const bool *>(data), count, elementsPerRow); break;
        case INT8_T: DoPrintData(reinterpret_cast<const int8_t *>(data), count, elementsPerRow); break;
        case UINT8_T: DoPrintData(reinterpret_cast<const uint8_t *>(data), count, elementsPerRow); break;
        case INT16_T: DoPrintData(reinterpret_cast<const int16_t *>(data), count, elementsPerRow); break;
        case UINT16_T: DoPrintData(reinterpret_cast<const uint16_t *>(data), count, elementsPerRow); break;
        case INT32_T: DoPrintData(reinterpret_cast<const int32_t *>(data), count, elementsPerRow); break;
        case UINT32_T: DoPrintData(reinterpret_cast<const uint32_t *>(data), count, elementsPerRow); break;
        case INT64_T: DoPrintData(reinterpret_cast<const int64_t *>(data), count, elementsPerRow); break;
        case UINT64_T: DoPrintData(reinterpret_cast<const uint64_t *>(data), count, elementsPerRow); break;
        case HALF: DoPrintHalfData(reinterpret_cast<const aclFloat16 *>(data), count, elementsPerRow); break;
        case FLOAT: DoPrintData(reinterpret_cast<const float *>(data), count, elementsPerRow); break;
        case DOUBLE: DoPrintData(reinterpret_cast<const double *>(data), count, elementsPerRow); break;
        default: ERROR_LOG("Unsupported type: %d", dataType);
    }
    std::cout << std::endl;
}
#endif // DATA_UTILS_H
