#!/usr/bin/python3
# -*- coding:utf-8 -*-
"""Golden data for add_custom: two fp16 inputs of shape [8, 2048] and their sum, as raw .bin files."""
import os

import numpy as np


def gen_golden_data_simple():
    input_x = np.random.uniform(1, 100, [8, 2048]).astype(np.float16)
    input_y = np.random.uniform(1, 100, [8, 2048]).astype(np.float16)
    golden = (input_x + input_y).astype(np.float16)

    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    input_x.tofile("./input/input_x.bin")
    input_y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data_simple()
